import CLibevent

#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libevent setup, done once before the first `event_base`.
enum LibeventRuntime {
    /// Call before creating any libevent object; later calls do nothing.
    static func prepare() {
        _ = prepared
    }

    private static let prepared: Bool = {
        // No evthread_use_pthreads: each event base is used by its own
        // thread only; other threads wake a loop through its `Doorbell`.
        // A peer that closes early must cost an EPIPE, not the process.
        signal(SIGPIPE, SIG_IGN)
        event_set_log_callback(logLibeventMessage)
        return true
    }()
}

/// libevent's warnings as one JSON line on stderr. Its messages put values a
/// client sent after a second ": " (a header value, for example); that part
/// is dropped so client content never reaches the log.
private func logLibeventMessage(severity: Int32, message: UnsafePointer<CChar>?) {
    guard severity >= EVENT_LOG_WARN, let message else { return }
    let text = String(cString: message)
    let parts = text.components(separatedByColonSpace: 3)
    let kept = parts.prefix(2).joined(separator: ": ")
    var escaped = ""
    for scalar in kept.unicodeScalars {
        switch scalar {
        case "\"": escaped += "\\\""
        case "\\": escaped += "\\\\"
        case _ where scalar.value < 0x20: escaped += " "
        default: escaped.unicodeScalars.append(scalar)
        }
    }
    let level = severity >= EVENT_LOG_ERR ? "error" : "warning"
    DiagnosticLog.write(
        "{\"event\":\"libevent\",\"level\":\"\(level)\",\"message\":\"\(escaped)\"}",
        to: DiagnosticLog.standardError)
}

private extension String {
    /// Splits on ": " into at most `maxParts` pieces (the last keeps the rest).
    func components(separatedByColonSpace maxParts: Int) -> [Substring] {
        var parts: [Substring] = []
        var rest = self[...]
        while parts.count < maxParts - 1, let range = rest.firstRange(of: ": ") {
            parts.append(rest[..<range.lowerBound])
            rest = rest[range.upperBound...]
        }
        parts.append(rest)
        return parts
    }
}
