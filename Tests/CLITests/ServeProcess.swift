import Foundation
import HTTPTestSupport

/// `notification-text serve …` started from the build directory next to the
/// test bundle, with its stdout and stderr captured.
final class ServeProcess {
    let process = Process()
    private let exited = DispatchSemaphore(value: 0)
    private let output = Pipe()
    private let errors = Pipe()
    private var stdoutBytes: [UInt8] = []
    private(set) var port = 0

    init(arguments: [String], environment: [String: String] = [:]) throws {
        process.executableURL = URL(fileURLWithPath: try BuiltExecutable.path())
        process.arguments = ["serve"] + arguments
        var inherited = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("NOTIFICATION_TEXT_") }
        inherited.merge(environment) { $1 }
        process.environment = inherited
        process.standardOutput = output
        process.standardError = errors
        process.terminationHandler = { [exited] _ in exited.signal() }
        try process.run()
    }

    /// Waits (up to 10 s) for the JSON start line and remembers the port.
    func readStartLine() throws -> [String: Any] {
        let line = try readLine(timeoutSeconds: 10)
        let object = try Self.jsonObject(line)
        port = object["port"] as? Int ?? 0
        return object
    }

    /// The next JSON line on stdout (within `timeoutSeconds`).
    func nextStdoutObject(timeoutSeconds: Double) throws -> [String: Any] {
        try Self.jsonObject(try readLine(timeoutSeconds: timeoutSeconds))
    }

    func lastStdoutObject() throws -> [String: Any] {
        stdoutBytes += Array(output.fileHandleForReading.readDataToEndOfFile())
        let lines = String(decoding: stdoutBytes, as: UTF8.self).split(separator: "\n")
        guard let last = lines.last else { throw RawHTTPConnection.Failure(description: "no stdout") }
        return try Self.jsonObject(String(last))
    }

    func standardError() -> String {
        String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// The exit status, or a failure if the process outlives the timeout.
    func waitForExit(timeoutSeconds: Double) throws -> Int32 {
        guard exited.wait(timeout: .now() + timeoutSeconds) == .success else {
            throw RawHTTPConnection.Failure(description: "serve still running after \(timeoutSeconds) s")
        }
        exited.signal()  // for a later call
        process.waitUntilExit()
        guard process.terminationReason == .exit else {
            throw RawHTTPConnection.Failure(description: "serve died of signal \(process.terminationStatus)")
        }
        return process.terminationStatus
    }

    func terminateIfRunning() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    private func readLine(timeoutSeconds: Double) throws -> String {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(timeoutSeconds)
        while true {
            if let newline = stdoutBytes.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: stdoutBytes[..<newline], as: UTF8.self)
                stdoutBytes.removeFirst(newline + 1)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else {
                throw RawHTTPConnection.Failure(description: "no line on stdout within \(timeoutSeconds) s")
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(remaining * 1_000)) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4_096)
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else {
                throw RawHTTPConnection.Failure(description: "stdout closed before a line; stderr: \(standardError())")
            }
            stdoutBytes += chunk[..<count]
        }
    }

    private static func jsonObject(_ line: String) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw RawHTTPConnection.Failure(description: "not a JSON object: \(line)")
        }
        return object
    }
}
