import NotificationService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What every subcommand shares: exit codes, stdin, stdout, errors.
enum CLI {
    /// Exit status for a bad command line (sysexits' EX_USAGE).
    static let usageError: Int32 = 64
    /// Exit status for bad input data (sysexits' EX_DATAERR).
    static let dataError: Int32 = 65

    static func fail(_ message: String, status: Int32) -> Never {
        writeStderr("notification-text: \(message)\n")
        exit(status)
    }

    static func writeStderr(_ text: String) { writeAll(text, to: 2) }

    static func writeStdout(_ text: String) { writeAll(text, to: 1) }

    /// Writes every byte with write(2), retrying short writes and EINTR.
    static func writeAll(_ text: String, to descriptor: Int32) {
        LogSink.writeLine(Array(text.utf8), to: descriptor)
    }

    /// All of stdin as bytes.
    static func readStdin() -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n > 0 {
                data.append(contentsOf: chunk[0..<n])
            } else if n == 0 || errno != EINTR {
                break
            }
        }
        return data
    }

    /// Stdin as a String; invalid UTF-8 is a data error, never repaired.
    static func readStdinText() -> String {
        let bytes = readStdin()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            fail("stdin is not valid UTF-8", status: dataError)
        }
        return text
    }

    /// Calls `body` with each `--name value` (or `--name=value`) in
    /// `arguments`, in order; anything else is a usage error naming `command`.
    static func forEachOption(
        in arguments: [String], of command: String, named names: Set<String>, _ body: (String, String) -> Void
    ) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if names.contains(argument) {
                guard let value = rest.popFirst() else { fail("\(argument) needs a value", status: usageError) }
                body(argument, value)
            } else if let equals = argument.firstIndex(of: "="), names.contains(String(argument[..<equals])) {
                body(String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
            } else {
                fail("\(command): unknown argument '\(argument)'", status: usageError)
            }
        }
    }

    /// Parses `--name N` (or `--name=N`) as an integer within `range`.
    static func integerOption(_ name: String, _ raw: String, in range: ClosedRange<Int>) -> Int {
        guard let value = Int(raw), range.contains(value) else {
            fail(
                "\(name) must be an integer in \(range.lowerBound)…\(range.upperBound), got '\(raw)'",
                status: usageError)
        }
        return value
    }
}
