import Foundation
import Testing

/// The README's `Package.swift` lines, as written there, resolve for a
/// package that depends on a checkout of this repository in a folder that is
/// not named `notification-text`.
@Suite struct ReadmeDependencyTests {
    /// The `.package(…)` and `.product(…)` lines of the README's library section.
    static func dependencyLines() -> (package: String, product: String)? {
        let readme =
            (try? String(contentsOf: FixtureCLITests.root.appendingPathComponent("README.md"), encoding: .utf8))
            ?? ""
        let lines = readme.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let start = lines.firstIndex(where: { $0.hasPrefix("// Package.swift") }), start + 2 < lines.count,
            lines[start + 1].hasPrefix(".package("), lines[start + 2].hasPrefix(".product(")
        else { return nil }
        return (String(lines[start + 1].dropLast()), String(lines[start + 2].dropLast()))
    }

    @Test func readmeDependency_resolvesFromAFolderOfAnyName() throws {
        let (dependency, product) = try #require(Self.dependencyLines(), "no Package.swift lines in README.md")
        #expect(dependency.contains(#"path: "../notification-text""#), "\(dependency)")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("readme-dependency-\(getpid())")
        defer { try? FileManager.default.removeItem(at: folder) }
        let consumer = folder.appendingPathComponent("consumer")
        try FileManager.default.createDirectory(
            at: consumer.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        // The checkout under another name than the package's own.
        try FileManager.default.createSymbolicLink(
            at: folder.appendingPathComponent("a-checkout"), withDestinationURL: FixtureCLITests.root)
        let manifest = """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(
                name: "App",
                dependencies: [\(dependency.replacingOccurrences(of: "../notification-text", with: "../a-checkout"))],
                targets: [.executableTarget(name: "App", dependencies: [\(product)])]
            )
            """
        try manifest.write(to: consumer.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try "import NotificationText\n".write(
            to: consumer.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "--package-path", consumer.path, "describe", "--type", "json"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(text)")
        #expect(text.contains(#""name" : "App""#), "\(text)")
    }
}
