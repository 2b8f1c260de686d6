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
    /// Exit status when stdin cannot be read (sysexits' EX_IOERR).
    static let ioError: Int32 = 74

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

    static func writeAll(_ bytes: [UInt8], to descriptor: Int32) {
        LogSink.writeLine(bytes, to: descriptor)
    }

    /// All of stdin as bytes (up to a failed read, as far as it went).
    static func readStdin() -> [UInt8] {
        ProcessIO.readAll(from: 0)
    }

    /// Stdin as a String; invalid UTF-8 is a data error, never repaired.
    static func readStdinText() -> String {
        let bytes = readStdin()
        guard let text = String(validating: bytes, as: UTF8.self) else {
            fail("stdin is not valid UTF-8", status: dataError)
        }
        return text
    }
}
