import EventHTTP
import NotificationService
import NotificationText

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Everything `serve` can be configured with: one struct, a default for every
/// field, read once at start from the environment and then the command line
/// (a flag wins over its environment variable).
struct ServeConfiguration: Equatable {
    var server = HTTPServerConfiguration()
    /// App name used in generic compose texts when a request names none.
    var appName = ComposeRequest.defaultApp
    /// The built-in catalogs with the default locale of compose texts.
    var catalogs = CatalogSet.builtIn
    /// One access-log line per request on stdout.
    var accessLogEnabled = true
    /// Read once at start from `--auth-token-file`; nil leaves access open.
    var authToken: BearerToken?
    /// The separate `/metrics` listener's port; nil serves metrics on the main port only.
    var metricsPort: Int?
    /// The separate `/metrics` listener's address: loopback, so only the node scrapes it.
    var metricsHost = "127.0.0.1"

    /// What the service module needs from this configuration.
    var service: ServiceConfiguration {
        ServiceConfiguration(
            appName: appName, catalogs: catalogs, accessLogEnabled: accessLogEnabled, authToken: authToken)
    }

    /// The metrics listener's settings: one event loop, the main port's limits.
    var metricsServer: HTTPServerConfiguration? {
        guard let metricsPort else { return nil }
        var metrics = server
        metrics.host = metricsHost
        metrics.port = metricsPort
        metrics.threadCount = 1
        return metrics
    }

    /// One setting: its flag, its environment variable, what it means, and
    /// how a raw value is checked and stored.
    struct Option: Sendable {
        let flag: String
        let environmentVariable: String
        let valueName: String
        let meaning: String
        /// Stores a valid value, or says what is wrong with it.
        let apply: @Sendable (inout ServeConfiguration, String) -> String?
    }

    /// Every setting, in the order the README's table lists them.
    static let options: [Option] = [
        Option(
            flag: "--host", environmentVariable: "NOTIFICATION_TEXT_HOST", valueName: "ADDRESS",
            meaning: "address to listen on"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            configuration.server.host = raw
            return nil
        },
        Option(
            flag: "--port", environmentVariable: "NOTIFICATION_TEXT_PORT", valueName: "PORT",
            meaning: "TCP port (0: any free port)"
        ) { configuration, raw in
            integer(raw, in: 0...65_535) { configuration.server.port = $0 }
        },
        Option(
            flag: "--threads", environmentVariable: "NOTIFICATION_TEXT_THREADS", valueName: "N",
            meaning: "event-loop threads"
        ) { configuration, raw in
            integer(raw, in: 1...256) { configuration.server.threadCount = $0 }
        },
        Option(
            flag: "--max-body-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_BODY_BYTES", valueName: "BYTES",
            meaning: "largest request body"
        ) { configuration, raw in
            integer(raw, in: 1_024...1_073_741_824) { configuration.server.maxBodyBytes = $0 }
        },
        Option(
            flag: "--max-header-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_HEADER_BYTES", valueName: "BYTES",
            meaning: "largest request line plus header fields"
        ) { configuration, raw in
            integer(raw, in: 1_024...1_048_576) { configuration.server.maxHeaderBytes = $0 }
        },
        Option(
            flag: "--max-uri-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_URI_BYTES", valueName: "BYTES",
            meaning: "longest request target"
        ) { configuration, raw in
            integer(raw, in: 64...1_048_576) { configuration.server.maxURIBytes = $0 }
        },
        Option(
            flag: "--app-name", environmentVariable: "NOTIFICATION_TEXT_APP_NAME", valueName: "NAME",
            meaning: "app name in generic compose texts"
        ) { configuration, raw in
            guard !raw.isEmpty, raw.count <= 100 else { return "must be 1…100 characters" }
            guard !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return "must not contain control characters"
            }
            configuration.appName = raw
            return nil
        },
        Option(
            flag: "--default-locale", environmentVariable: "NOTIFICATION_TEXT_DEFAULT_LOCALE", valueName: "TAG",
            meaning: "language of compose texts when a request has no locale (a built-in catalog must fit it)"
        ) { configuration, raw in
            defaultLocale(raw) { configuration.catalogs = $0 }
        },
        Option(
            flag: "--read-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_READ_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "idle connection timeout, and the time one request may take to arrive"
        ) { configuration, raw in
            seconds(raw, in: 0.1...3_600) { configuration.server.readTimeoutSeconds = $0 }
        },
        Option(
            flag: "--write-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_WRITE_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "how long a reply may wait for a client that does not read"
        ) { configuration, raw in
            seconds(raw, in: 0.1...3_600) { configuration.server.writeTimeoutSeconds = $0 }
        },
        Option(
            flag: "--drain-seconds", environmentVariable: "NOTIFICATION_TEXT_DRAIN_SECONDS", valueName: "S",
            meaning: "after SIGTERM/SIGINT, the longest wait for requests in flight"
        ) { configuration, raw in
            seconds(raw, in: 0...3_600) { configuration.server.drainSeconds = $0 }
        },
        Option(
            flag: "--auth-token-file", environmentVariable: "NOTIFICATION_TEXT_AUTH_TOKEN_FILE", valueName: "PATH",
            meaning: "file holding the bearer token every request but /healthz and /readyz must carry"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            guard let contents = readSmallFile(raw, maxBytes: maxTokenFileBytes) else {
                return "cannot be read (missing, unreadable, or larger than \(maxTokenFileBytes) bytes)"
            }
            do {
                configuration.authToken = try BearerToken(fileContents: contents)
            } catch {
                return "is not usable: \(error)"
            }
            return nil
        },
        Option(
            flag: "--metrics-port", environmentVariable: "NOTIFICATION_TEXT_METRICS_PORT", valueName: "PORT",
            meaning: "also serve /metrics (and the probes) without a token on this port (0: any free port)"
        ) { configuration, raw in
            integer(raw, in: 0...65_535) { configuration.metricsPort = $0 }
        },
        Option(
            flag: "--metrics-host", environmentVariable: "NOTIFICATION_TEXT_METRICS_HOST", valueName: "ADDRESS",
            meaning: "address of the --metrics-port listener"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            configuration.metricsHost = raw
            return nil
        },
        Option(
            flag: "--access-log", environmentVariable: "NOTIFICATION_TEXT_ACCESS_LOG", valueName: "on|off",
            meaning: "one JSON line per request on stdout"
        ) { configuration, raw in
            switch raw {
            case "on", "true", "1": configuration.accessLogEnabled = true
            case "off", "false", "0": configuration.accessLogEnabled = false
            default: return "must be on or off"
            }
            return nil
        },
    ]

    /// Reads each setting from its flag in `arguments`, else from its
    /// environment variable, else the default. A bad value is a usage error
    /// naming the flag or variable it came from; an environment value that a
    /// flag overrides is not even looked at.
    static func load(arguments: [String], environment: (String) -> String? = ServeConfiguration.environmentValue)
        -> Result<ServeConfiguration, UsageError>
    {
        var flagValues: [String: String] = [:]
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            let name: String
            let raw: String
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                raw = String(argument[argument.index(after: equals)...])
            } else {
                name = argument
                guard options.contains(where: { $0.flag == name }) else {
                    return .failure(UsageError("serve: unknown argument '\(argument)'"))
                }
                guard let value = rest.popFirst() else { return .failure(UsageError("\(name) needs a value")) }
                raw = value
            }
            guard options.contains(where: { $0.flag == name }) else {
                return .failure(UsageError("serve: unknown argument '\(argument)'"))
            }
            flagValues[name] = raw
        }
        var configuration = ServeConfiguration()
        for option in options {
            let source: String
            let raw: String
            if let value = flagValues[option.flag] {
                (source, raw) = (option.flag, value)
            } else if let value = environment(option.environmentVariable) {
                (source, raw) = (option.environmentVariable, value)
            } else {
                continue
            }
            if let problem = option.apply(&configuration, raw) {
                return .failure(UsageError("\(source) \(problem), got '\(raw)'"))
            }
        }
        return .success(configuration)
    }

    /// A token is short; a bigger file is a mistake (the wrong path).
    static let maxTokenFileBytes = 4_096

    /// The whole file at `path`, or nil when it cannot be read or holds more than `maxBytes`.
    static func readSmallFile(_ path: String, maxBytes: Int) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var contents = [UInt8](repeating: 0, count: maxBytes + 1)
        let count = contents.withUnsafeMutableBytes { fread($0.baseAddress, 1, maxBytes + 1, file) }
        guard ferror(file) == 0, count <= maxBytes else { return nil }
        return Array(contents[..<count])
    }

    struct UsageError: Error, Equatable {
        let message: String
        init(_ message: String) { self.message = message }
    }

    static func environmentValue(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }

    /// The built-in catalogs with the default locale `raw`, chosen by the
    /// rules a request's `locale` follows (compose.md section 10).
    static func defaultLocale(_ raw: String, store: (CatalogSet) -> Void) -> String? {
        do {
            store(try CatalogSet.builtIn.withDefaultLocale(raw))
            return nil
        } catch .malformedTag {
            return "must be a BCP 47 language tag such as pt-BR"
        } catch {
            return "fits no catalog (they are \(CatalogSet.builtIn.catalogs.map(\.tag).joined(separator: ", ")))"
        }
    }

    private static func integer(_ raw: String, in range: ClosedRange<Int>, store: (Int) -> Void) -> String? {
        guard let value = Int(raw), range.contains(value) else {
            return "must be an integer in \(range.lowerBound)…\(range.upperBound)"
        }
        store(value)
        return nil
    }

    private static func seconds(_ raw: String, in range: ClosedRange<Double>, store: (Double) -> Void) -> String? {
        guard let value = Double(raw), value.isFinite, range.contains(value) else {
            return
                "must be a number of seconds in \(range.lowerBound.formattedSeconds)…\(range.upperBound.formattedSeconds)"
        }
        store(value)
        return nil
    }
}

private extension Double {
    /// "0.1", "3600" rather than "3600.0".
    var formattedSeconds: String {
        self == rounded() ? String(Int(self)) : String(self)
    }
}
