import Foundation

/// The repository root, found from this file's path.
public let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// A file of the repository (a fixture, a sample request) as bytes; empty when it cannot be read.
public func repositoryFile(_ relativePath: String) -> [UInt8] {
    (try? [UInt8](Data(contentsOf: repositoryRoot.appendingPathComponent(relativePath)))) ?? []
}
