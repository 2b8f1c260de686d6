import Foundation
import HTTPTestSupport

/// The `notification-text` binary SwiftPM built beside this test bundle.
enum BuiltExecutable {
    static func path() throws -> String {
        let bundle = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        var directory = URL(fileURLWithPath: bundle).deletingLastPathComponent()
        while !directory.path.hasSuffix("/debug") && !directory.path.hasSuffix("/release") && directory.path != "/" {
            directory.deleteLastPathComponent()
        }
        let path = directory.appendingPathComponent("notification-text").path
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw RawHTTPConnection.Failure(description: "no built notification-text at \(path); run swift build first")
        }
        return path
    }

    /// Runs the binary to its end with `stdin` as its input.
    static func run(_ arguments: [String], stdin: [UInt8] = []) throws -> (
        status: Int32, stdout: String, stderr: String
    ) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path())
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        input.fileHandleForWriting.write(Data(stdin))
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }
}
