import EventHTTP
import NotificationService

/// `serve [options]`: the HTTP service on libevent until SIGTERM or SIGINT.
///
/// stdout gets one JSON start line once every event loop accepts, e.g.
/// `{"event":"start","version":"0.3.0","revision":"5e86682297cc","address":"127.0.0.1:8080","host":"127.0.0.1","port":8080,"threads":2,"maxConnections":1024,"memoryBudgetBytes":1030750208,"pid":4242}`,
/// then the access log and the `rejected` and `auth-tokens-reloaded` lines,
/// then one stop line, e.g.
/// `{"event":"stop","reason":"SIGTERM","drainMilliseconds":3,"forcedCloses":0}`.
/// With `--metrics-port` the start line also names the metrics listener
/// (`"metricsAddress":"127.0.0.1:9464","metricsPort":9464`).
/// SIGHUP re-reads `--auth-token-file` (a file that cannot be used keeps the
/// tokens in force and logs `auth-tokens-reload-failed` on stderr).
/// Exit status: 0 after a drain, 64 for a bad setting, 69 when it cannot listen.
enum ServeCommand {
    /// sysexits' EX_UNAVAILABLE: the address is taken or not ours to bind.
    static let unavailable: Int32 = 69

    static func run(_ arguments: [String]) {
        let parsed = OptionParser.settingsOrExit(
            arguments, command: "serve", options: ServeConfiguration.options, help: { help })
        // Raised first: the derived connection limit reads the descriptor limit.
        raiseOpenFileLimit()
        let configuration = parsed.withConnectionLimit()
        var serviceConfiguration = configuration.service
        serviceConfiguration.build = BuildInfo(version: BuildVersion.version, revision: BuildVersion.revision)
        // The access log goes out per event-loop iteration, not per line (see LogSink).
        let service = NotificationTextService(configuration: serviceConfiguration, accessLog: .bufferedStandardOutput)
        // The metrics listener drains when the main server does (ADR 0017):
        // its idle keep-alive connections close then, not after the main drain.
        let drainingListener = Locked<MetricsListener?>(nil)
        let server = HTTPServer(configuration: configuration.server, handler: service) { state in
            service.setState(state)
            if state == .draining { drainingListener.withLock { $0 }?.beginDrain() }
        }
        if configuration.server.memoryBudgetBytes != nil {
            // Weakly: the server holds the service, which would then hold the server.
            service.readMemoryCharge { [weak server] in server?.chargedMemoryBytes ?? 0 }
        }
        do {
            // Bound first, so a taken metrics port stops the start before the main port is open.
            let metricsListener = try configuration.metricsServer.map { metrics throws(HTTPServerError) in
                try MetricsListener(configuration: metrics, handler: service.metricsListenerHandler)
            }
            drainingListener.withLock { $0 = metricsListener }
            defer { metricsListener?.stop() }
            let tokenFile = configuration.authTokenFile
            let report = try server.run(
                handlingSignals: true, onHangup: { reloadAuthTokens(from: tokenFile, into: service) }
            ) { address in
                CLI.writeStdout(
                    startLine(
                        address: address, threadCount: configuration.server.threadCount,
                        maxConnections: configuration.server.maxConnections,
                        memoryBudgetBytes: configuration.server.memoryBudgetBytes,
                        metricsAddress: metricsListener?.address))
            }
            CLI.writeStdout(
                "{\"event\":\"stop\",\"reason\":\"\(report.reason)\",\"drainMilliseconds\":\(report.drainNanoseconds / 1_000_000),"
                    + "\"forcedCloses\":\(report.forcedCloseCount)}\n")
        } catch {
            if case .unresolvableHost = error {
                CLI.fail("serve: \(error)", status: CLI.usageError)
            }
            CLI.fail("serve: \(error)", status: unavailable)
        }
    }

    /// The line other scripts parse to find the port (`address` is
    /// "host:port", an IPv6 host in brackets).
    /// With `--metrics-port`, the line also has `metricsAddress` and `metricsPort`.
    static func startLine(
        address: BoundAddress, threadCount: Int, maxConnections: Int, memoryBudgetBytes: Int? = nil,
        metricsAddress: BoundAddress? = nil
    ) -> String {
        let budget = memoryBudgetBytes.map { ",\"memoryBudgetBytes\":\($0)" } ?? ""
        let metrics = metricsAddress.map { ",\"metricsAddress\":\"\($0)\",\"metricsPort\":\($0.port)" } ?? ""
        return "{\"event\":\"start\",\"version\":\"\(BuildVersion.version)\",\"revision\":\"\(BuildVersion.revision)\","
            + "\"address\":\"\(address)\",\"host\":\"\(address.host)\",\"port\":\(address.port),"
            + "\"threads\":\(threadCount),\"maxConnections\":\(maxConnections)\(budget)\(metrics),\"pid\":\(getpid())}\n"
    }

    /// SIGHUP: the token file again. A file that cannot be used leaves the
    /// tokens in force; either way one line says so (never a token).
    static func reloadAuthTokens(from path: String?, into service: NotificationTextService) {
        guard let path else {
            CLI.writeStdout(
                "{\"event\":\"auth-tokens-reload-skipped\",\"detail\":\"serve runs without --auth-token-file\"}\n")
            return
        }
        switch ServeConfiguration.loadAuthTokens(path: path) {
        case .success(let tokens):
            service.replaceAuthTokens(tokens)
            CLI.writeStdout("{\"event\":\"auth-tokens-reloaded\",\"tokens\":\(tokens.count)}\n")
        case .failure(let problem):
            CLI.writeStderr(
                "{\"event\":\"auth-tokens-reload-failed\",\"detail\":\"--auth-token-file \(problem.message);"
                    + " the tokens in force stay\"}\n")
        }
    }

    /// Each keep-alive connection holds a descriptor; the soft limit (often
    /// 1024) is raised to the hard one, as far as the system allows.
    static func raiseOpenFileLimit() {
        ProcessIO.raiseOpenFileLimit()
    }

    static var help: String {
        OptionParser.help(
            usage: "serve [options]",
            about: "The HTTP service on 127.0.0.1:8080 until SIGTERM or SIGINT. Each setting is also read from its\n"
                + "environment variable; a flag wins over its variable.",
            options: ServeConfiguration.options,
            notes: "signals: SIGTERM/SIGINT drain and exit 0 (a second one closes everything at once);"
                + " SIGHUP re-reads --auth-token-file\n"
                + "exit status: 0 after a drain, 64 for a bad setting, 69 when the address cannot be bound")
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
