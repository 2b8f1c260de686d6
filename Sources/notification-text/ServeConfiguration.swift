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
    /// One access-log line per request on stdout.
    var accessLogEnabled = true
    /// `--auth-token-file`, re-read on SIGHUP; nil leaves access open.
    var authTokenFile: String?
    /// The tokens read from `authTokenFile` at start.
    var authTokens: AuthTokens?
    /// The separate `/metrics` listener's port; nil serves metrics on the main port only.
    var metricsPort: Int?
    /// The separate `/metrics` listener's address: loopback, so only the node scrapes it.
    var metricsHost = "127.0.0.1"
    /// `--max-connections`; nil sizes the limit to the memory (`ConnectionLimit.derived`).
    var maxConnections: Int?

    /// What the service module needs from this configuration.
    var service: ServiceConfiguration {
        ServiceConfiguration(appName: appName, accessLogEnabled: accessLogEnabled, authTokens: authTokens)
    }

    /// The metrics listener's settings: one event loop, the main port's limits.
    var metricsServer: HTTPServerConfiguration? {
        guard let metricsPort else { return nil }
        var metrics = server
        metrics.host = metricsHost
        metrics.port = metricsPort
        metrics.threadCount = 1
        // Scrapers reconnect at once: nothing to keep open, nothing to delay.
        metrics.keepsIdleConnectionsWhileDraining = false
        metrics.shutdownDelaySeconds = 0
        metrics.maxConnections = min(server.maxConnections, 64)
        return metrics
    }

    /// One setting: its flag, its environment variable, what it means, and
    /// how a raw value is checked and stored.
    struct Option: Sendable {
        let flag: String
        let environmentVariable: String
        let valueName: String
        let meaning: String
        /// The accepted values and the default, for `serve --help`.
        let values: String
        /// Stores a valid value, or says what is wrong with it.
        let apply: @Sendable (inout ServeConfiguration, String) -> String?
    }

    /// Every setting, in the order the README's table lists them.
    static let options: [Option] = [
        Option(
            flag: "--host", environmentVariable: "NOTIFICATION_TEXT_HOST", valueName: "ADDRESS",
            meaning: "address to listen on",
            values: "default 127.0.0.1"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            configuration.server.host = raw
            return nil
        },
        Option(
            flag: "--port", environmentVariable: "NOTIFICATION_TEXT_PORT", valueName: "PORT",
            meaning: "TCP port (0: any free port)",
            values: "0…65535; default 8080"
        ) { configuration, raw in
            integer(raw, in: 0...65_535) { configuration.server.port = $0 }
        },
        Option(
            flag: "--threads", environmentVariable: "NOTIFICATION_TEXT_THREADS", valueName: "N",
            meaning: "event-loop threads",
            values: "1…256; default: the processors online"
        ) { configuration, raw in
            integer(raw, in: 1...256) { configuration.server.threadCount = $0 }
        },
        Option(
            flag: "--max-body-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_BODY_BYTES", valueName: "BYTES",
            meaning: "largest request body",
            values: "1024…1073741824; default 1048576"
        ) { configuration, raw in
            integer(raw, in: 1_024...1_073_741_824) { configuration.server.maxBodyBytes = $0 }
        },
        Option(
            flag: "--max-header-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_HEADER_BYTES", valueName: "BYTES",
            meaning: "largest request line plus header fields",
            values: "1024…1048576; default 16384"
        ) { configuration, raw in
            integer(raw, in: 1_024...1_048_576) { configuration.server.maxHeaderBytes = $0 }
        },
        Option(
            flag: "--max-uri-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_URI_BYTES", valueName: "BYTES",
            meaning: "longest request target",
            values: "64…1048576; default 4096"
        ) { configuration, raw in
            integer(raw, in: 64...1_048_576) { configuration.server.maxURIBytes = $0 }
        },
        Option(
            flag: "--app-name", environmentVariable: "NOTIFICATION_TEXT_APP_NAME", valueName: "NAME",
            meaning: "app name in generic compose texts",
            values: "1…100 characters, no control characters; default \(ComposeRequest.defaultApp)"
        ) { configuration, raw in
            guard !raw.isEmpty, raw.count <= 100 else { return "must be 1…100 characters" }
            guard !raw.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
                return "must not contain control characters"
            }
            configuration.appName = raw
            return nil
        },
        Option(
            flag: "--read-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_READ_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "idle connection timeout, and the time one request may take to arrive",
            values: "0.1…3600; default 10"
        ) { configuration, raw in
            seconds(raw, in: 0.1...3_600) { configuration.server.readTimeoutSeconds = $0 }
        },
        Option(
            flag: "--write-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_WRITE_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "how long a reply may wait for a client that does not read",
            values: "0.1…3600; default 10"
        ) { configuration, raw in
            seconds(raw, in: 0.1...3_600) { configuration.server.writeTimeoutSeconds = $0 }
        },
        Option(
            flag: "--drain-seconds", environmentVariable: "NOTIFICATION_TEXT_DRAIN_SECONDS", valueName: "S",
            meaning: "after SIGTERM/SIGINT and the shutdown delay, how long requests in flight and idle keep-alive"
                + " connections get to finish (each later request is answered with Connection: close)",
            values: "0…3600; default 10"
        ) { configuration, raw in
            seconds(raw, in: 0...3_600) { configuration.server.drainSeconds = $0 }
        },
        Option(
            flag: "--shutdown-delay-seconds", environmentVariable: "NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS",
            valueName: "S",
            meaning: "after SIGTERM/SIGINT, how long to go on serving (/readyz says 503) before the drain starts",
            values: "0…3600; default 0"
        ) { configuration, raw in
            seconds(raw, in: 0...3_600) { configuration.server.shutdownDelaySeconds = $0 }
        },
        Option(
            flag: "--max-connections", environmentVariable: "NOTIFICATION_TEXT_MAX_CONNECTIONS", valueName: "N",
            meaning: "client connections open at once; past it new ones wait in the kernel's backlog",
            values: "1…1000000; default: (memory limit - 32 MiB - 8 MiB a thread) / (max body + max head + 64 KiB),"
                + " at most the descriptor limit - 64, at least 16"
        ) { configuration, raw in
            integer(raw, in: 1...1_000_000) { configuration.maxConnections = $0 }
        },
        Option(
            flag: "--auth-token-file", environmentVariable: "NOTIFICATION_TEXT_AUTH_TOKEN_FILE", valueName: "PATH",
            meaning: "file of bearer tokens, one a line, one of which every request but /healthz and /readyz"
                + " must carry; SIGHUP re-reads it",
            values: "at most \(AuthTokens.maxCount) tokens, \(maxTokenFileBytes) bytes; default: none (no token needed)"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            switch loadAuthTokens(path: raw) {
            case .success(let tokens):
                configuration.authTokenFile = raw
                configuration.authTokens = tokens
                return nil
            case .failure(let problem):
                return problem.message
            }
        },
        Option(
            flag: "--metrics-port", environmentVariable: "NOTIFICATION_TEXT_METRICS_PORT", valueName: "PORT",
            meaning: "also serve /metrics (and the probes) without a token on this port (0: any free port)",
            values: "0…65535; default: none (metrics on the main port only)"
        ) { configuration, raw in
            integer(raw, in: 0...65_535) { configuration.metricsPort = $0 }
        },
        Option(
            flag: "--metrics-host", environmentVariable: "NOTIFICATION_TEXT_METRICS_HOST", valueName: "ADDRESS",
            meaning: "address of the --metrics-port listener",
            values: "default 127.0.0.1"
        ) { configuration, raw in
            guard !raw.isEmpty else { return "must not be empty" }
            configuration.metricsHost = raw
            return nil
        },
        Option(
            flag: "--access-log", environmentVariable: "NOTIFICATION_TEXT_ACCESS_LOG", valueName: "on|off",
            meaning: "one JSON line per request on stdout",
            values: "on or off; default on"
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
        configuration.server.maxConnections =
            configuration.maxConnections
            ?? ConnectionLimit.derived(
                memoryBytes: ConnectionLimit.memoryLimitBytes(), descriptorLimit: ConnectionLimit.descriptorLimit(),
                threadCount: configuration.server.threadCount, maxBodyBytes: configuration.server.maxBodyBytes,
                maxHeaderBytes: configuration.server.maxHeaderBytes)
        return .success(configuration)
    }

    /// A few tokens are short; a bigger file is a mistake (the wrong path).
    static let maxTokenFileBytes = 4_096

    /// The tokens in the file at `path`, or what is wrong with it (never its text).
    static func loadAuthTokens(path: String) -> Result<AuthTokens, UsageError> {
        guard let contents = readSmallFile(path, maxBytes: maxTokenFileBytes) else {
            return .failure(
                UsageError("cannot be read (missing, unreadable, or larger than \(maxTokenFileBytes) bytes)"))
        }
        do {
            return .success(try AuthTokens(fileContents: contents))
        } catch {
            return .failure(UsageError("is not usable: \(error)"))
        }
    }

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
