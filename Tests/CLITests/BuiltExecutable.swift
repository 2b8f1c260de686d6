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

    /// The test's environment without any `NOTIFICATION_TEXT_*` setting, plus `extra`.
    static func environment(_ extra: [String: String]) -> [String: String] {
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOTIFICATION_TEXT_") }
        inherited.merge(extra) { $1 }
        return inherited
    }

    /// A write to a child that exited early must fail with EPIPE, not end the
    /// test process with SIGPIPE (seen: signal 13 when a usage error won the race).
    private static let ignoringBrokenPipes: Void = { signal(SIGPIPE, SIG_IGN) }()

    /// Runs the binary to its end with `stdin` as its input (written from
    /// another thread, so a large input and a large output cannot block each other).
    static func run(_ arguments: [String], stdin: [UInt8] = [], environment extra: [String: String] = [:]) throws
        -> (status: Int32, stdout: String, stderr: String)
    {
        _ = ignoringBrokenPipes
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try path())
        process.arguments = arguments
        process.environment = environment(extra)
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let writer = input.fileHandleForWriting
        let written = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            // A process that exits without reading it all (a usage error) closes
            // the pipe: the write fails with EPIPE, which is no test failure.
            try? writer.write(contentsOf: Data(stdin))
            try? writer.close()
            written.signal()
        }
        let errorData = LockedBox(Data())
        let errorsRead = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            let data = errors.fileHandleForReading.readDataToEndOfFile()
            errorData.withLock { $0 = data }
            errorsRead.signal()
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        written.wait()
        errorsRead.wait()
        process.waitUntilExit()
        return (
            process.terminationStatus, String(decoding: out, as: UTF8.self),
            String(decoding: errorData.withLock { $0 }, as: UTF8.self)
        )
    }
}

/// A value guarded by a lock, for the threads above.
final class LockedBox<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) -> Result) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return body(&value)
    }
}
