import EventHTTP
import NotificationEngine
import NotificationService

/// Everything `serve` can be configured with: one struct, a default for every
/// field, read once at start from the environment and then the command line
/// (a flag wins over its environment variable).
struct ServeConfiguration: Equatable, CommandSettings {
    var server = HTTPServerConfiguration()
    /// App name used in generic compose texts when a request names none.
    var appName = ComposeRequest.defaultApp
    /// The built-in catalogs with the default locale of compose texts.
    var catalogs = CatalogSet.builtIn
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
    /// The playground page at `GET /`; off makes `/` and its files 404.
    var playgroundEnabled = true
    /// `--max-connections`; nil sizes the limit to the memory (`ConnectionLimit.derived`).
    var maxConnections: Int?
    /// `--memory-limit-bytes`; nil reads the cgroup's limit (or the machine's memory).
    var memoryLimitBytes: Int?

    /// What the service module needs from this configuration.
    var service: ServiceConfiguration {
        ServiceConfiguration(
            appName: appName, catalogs: catalogs, accessLogEnabled: accessLogEnabled, authTokens: authTokens,
            playgroundEnabled: playgroundEnabled)
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
        // Its own budget, within the process's fixed reserve.
        metrics.memoryBudgetBytes = server.memoryBudgetBytes.map { _ in Self.metricsMemoryBudgetBytes }
        return metrics
    }

    /// The metrics listener's memory budget (part of `ConnectionLimit.reserveBytes`).
    static let metricsMemoryBudgetBytes = 8 << 20

    /// One setting of `serve`: one entry of `options`.
    typealias Option = CommandOption<ServeConfiguration>

    /// Every setting, in the order the README's table lists them.
    static let options: [Option] = [
        Option(
            flag: "--host", environmentVariable: "NOTIFICATION_TEXT_HOST", valueName: "ADDRESS",
            meaning: "address to listen on (IPv4, IPv6 or a name)",
            value: .text(\.server.host)
        ),
        Option(
            flag: "--port", environmentVariable: "NOTIFICATION_TEXT_PORT", valueName: "PORT",
            meaning: "TCP port (0: any free port)",
            value: .integer(0...65_535, \.server.port)
        ),
        Option(
            flag: "--threads", environmentVariable: "NOTIFICATION_TEXT_THREADS", valueName: "N",
            meaning: "event-loop threads",
            value: .integer(1...256, \.server.threadCount, defaultNote: "the online processors")
        ),
        .maxBodyBytes(\.server.maxBodyBytes, meaning: "largest request body (a larger one gets 413)"),
        Option(
            flag: "--max-header-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_HEADER_BYTES", valueName: "BYTES",
            meaning: "largest request line plus header fields",
            value: .integer(1_024...1_048_576, \.server.maxHeaderBytes)
        ),
        Option(
            flag: "--max-uri-bytes", environmentVariable: "NOTIFICATION_TEXT_MAX_URI_BYTES", valueName: "BYTES",
            meaning: "longest request target (a longer one gets 414)",
            value: .integer(64...1_048_576, \.server.maxURIBytes)
        ),
        .appName(\.appName),
        .defaultLocale(\.catalogs),
        Option(
            flag: "--read-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_READ_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "idle connection timeout, and the time one request may take to arrive",
            value: .seconds(0.1...3_600, \.server.readTimeoutSeconds)
        ),
        Option(
            flag: "--write-timeout-seconds", environmentVariable: "NOTIFICATION_TEXT_WRITE_TIMEOUT_SECONDS",
            valueName: "S",
            meaning: "how long a reply may wait for a client that does not read",
            value: .seconds(0.1...3_600, \.server.writeTimeoutSeconds)
        ),
        Option(
            flag: "--drain-seconds", environmentVariable: "NOTIFICATION_TEXT_DRAIN_SECONDS", valueName: "S",
            meaning: "after SIGTERM/SIGINT and the shutdown delay, how long requests in flight and idle keep-alive"
                + " connections get to finish (each later request is answered with Connection: close)",
            value: .seconds(0...3_600, \.server.drainSeconds)
        ),
        Option(
            flag: "--shutdown-delay-seconds", environmentVariable: "NOTIFICATION_TEXT_SHUTDOWN_DELAY_SECONDS",
            valueName: "S",
            meaning: "after SIGTERM/SIGINT, how long to go on serving (/readyz says 503) before the drain starts",
            value: .seconds(0...3_600, \.server.shutdownDelaySeconds)
        ),
        Option(
            flag: "--max-connections", environmentVariable: "NOTIFICATION_TEXT_MAX_CONNECTIONS", valueName: "N",
            meaning: "client connections open at once; past it a new one takes the place of the connection"
                + " idle longest, else of the slowest head; with neither only probes are answered,"
                + " anything else gets 503 with Retry-After",
            value: .integer(
                1...1_000_000, \.maxConnections,
                unset: "memory budget / 8 KiB (an idle connection's charge),"
                    + " at most the descriptor limit less 200 and 72 a thread, at least 16")
        ),
        Option(
            flag: "--memory-limit-bytes", environmentVariable: "NOTIFICATION_TEXT_MEMORY_LIMIT_BYTES",
            valueName: "BYTES",
            meaning: "memory the process may use; its budget for connections' buffers is this less 32 MiB"
                + " and 8 MiB a thread (what does not fit gets 503 with Retry-After)",
            value: .integer(
                16 << 20...1 << 40, \.memoryLimitBytes,
                unset: "the cgroup's memory.max (v2, then v1), else the machine's memory")
        ),
        Option(
            flag: "--auth-token-file", environmentVariable: "NOTIFICATION_TEXT_AUTH_TOKEN_FILE", valueName: "PATH",
            meaning: "file of bearer tokens, one a line, one of which every request but /healthz and /readyz"
                + " must carry; SIGHUP re-reads it",
            value: OptionValue(
                accepted: "a readable file of at most \(AuthTokens.maxCount) tokens, \(maxTokenFileBytes) bytes",
                defaultValue: { _ in "none (no token needed)" }
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
            }
        ),
        Option(
            flag: "--metrics-port", environmentVariable: "NOTIFICATION_TEXT_METRICS_PORT", valueName: "PORT",
            meaning: "also serve /metrics (and the probes) without a token on this port (0: any free port)",
            value: .integer(0...65_535, \.metricsPort, unset: "none (metrics on the main port only)")
        ),
        Option(
            flag: "--metrics-host", environmentVariable: "NOTIFICATION_TEXT_METRICS_HOST", valueName: "ADDRESS",
            meaning: "address of the --metrics-port listener",
            value: .text(\.metricsHost)
        ),
        Option(
            flag: "--access-log", environmentVariable: "NOTIFICATION_TEXT_ACCESS_LOG", valueName: "on|off",
            meaning: "one JSON line per request on stdout",
            value: .onOff(\.accessLogEnabled)
        ),
        Option(
            flag: "--playground", environmentVariable: "NOTIFICATION_TEXT_PLAYGROUND", valueName: "on|off",
            meaning: "the playground page at GET / (static, no token needed to load it)",
            value: .onOff(\.playgroundEnabled)
        ),
    ]

    /// The settings from `arguments` and `environment` (see `OptionParser.parse`).
    static func load(arguments: [String], environment: (String) -> String? = OptionParser.environmentValue)
        -> Result<ServeConfiguration, UsageError>
    {
        OptionParser.parse(arguments, command: "serve", options: options, environment: environment).flatMap {
            parsed in
            switch parsed {
            case .run(let configuration): .success(configuration.withConnectionLimit())
            case .help: .failure(UsageError("serve: --help is not a setting"))
            }
        }
    }

    /// The server's memory budget, from `--memory-limit-bytes` or the
    /// cgroup's limit, and its connection limit: `--max-connections`, or
    /// else sized to the budget and the descriptor limit (`ConnectionLimit`).
    func withConnectionLimit() -> ServeConfiguration {
        var configuration = self
        let memoryBytes = memoryLimitBytes ?? ConnectionLimit.memoryLimitBytes()
        configuration.server.memoryBudgetBytes = ConnectionLimit.budgetBytes(
            memoryBytes: memoryBytes, threadCount: server.threadCount, maxBodyBytes: server.maxBodyBytes,
            maxHeaderBytes: server.maxHeaderBytes)
        configuration.server.maxConnections =
            maxConnections
            ?? ConnectionLimit.derived(
                memoryBytes: memoryBytes, descriptorLimit: ConnectionLimit.descriptorLimit(),
                threadCount: server.threadCount, maxBodyBytes: server.maxBodyBytes,
                maxHeaderBytes: server.maxHeaderBytes)
        return configuration
    }

    /// A few tokens are short; a bigger file is a mistake (the wrong path).
    static let maxTokenFileBytes = 4_096

    /// The tokens in the file at `path`, or what is wrong with it (never its text).
    static func loadAuthTokens(path: String) -> Result<AuthTokens, UsageError> {
        let contents: [UInt8]
        switch ProcessIO.readSmallFile(atPath: path, maxBytes: maxTokenFileBytes) {
        case .success(let bytes): contents = bytes
        case .failure(let reason): return .failure(UsageError(reason.description))
        }
        do {
            return .success(try AuthTokens(fileContents: contents))
        } catch {
            return .failure(UsageError("is not usable: \(error)"))
        }
    }
}
