import HTTPCore

/// Renders `ServiceMetrics` in the Prometheus text exposition format 0.0.4.
/// Runs per scrape, not per request, so clarity wins over speed here.
enum MetricsExposition {
    static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    struct Snapshot {
        var state: ServerState
        var startNanosecondsSinceEpoch: Int64
        var nowNanosecondsSinceEpoch: Int64
        var residentMemoryBytes: Int?
        /// What the server's memory budget has charged the connections now.
        var chargedMemoryBytes: Int? = nil
        /// User and system CPU time.
        var cpuNanoseconds: UInt64?
        var openDescriptorCount: Int?
        var maxDescriptorCount: Int?
        var unicodeVersion: String
        var build = BuildInfo()
    }

    static func render(_ metrics: ServiceMetrics, _ snapshot: Snapshot) -> [UInt8] {
        var out = ""
        out.reserveCapacity(8192)
        let statuses = ServiceMetrics.statuses
        let bounds = ServiceMetrics.bucketBoundsNanoseconds

        header(&out, "notification_text_http_requests_total", "counter", "Requests answered, by route and status.")
        for (r, route) in ServiceMetrics.routeLabels.enumerated() {
            for s in 0...statuses.count {
                let value = metrics.requests[r * (statuses.count + 1) + s].value
                guard value > 0 else { continue }
                let status = s < statuses.count ? String(statuses[s]) : "other"
                out += "notification_text_http_requests_total{route=\"\(route)\",status=\"\(status)\"} \(value)\n"
            }
        }

        header(
            &out, "notification_text_http_request_duration_seconds", "histogram",
            "Time from a complete request to its queued reply, by route.")
        for (r, route) in ServiceMetrics.routeLabels.enumerated() {
            var cumulative: UInt64 = 0
            var lines = ""
            for b in 0...bounds.count {
                cumulative += metrics.durationBuckets[r * (bounds.count + 1) + b].value
                let le = b < bounds.count ? seconds(bounds[b]) : "+Inf"
                lines +=
                    "notification_text_http_request_duration_seconds_bucket{route=\"\(route)\",le=\"\(le)\"} \(cumulative)\n"
            }
            // Routes never requested are left out, like the request counter's cells.
            guard cumulative > 0 else { continue }
            out += lines
            out +=
                "notification_text_http_request_duration_seconds_sum{route=\"\(route)\"} \(seconds(metrics.durationSumNanoseconds[r].value))\n"
            out += "notification_text_http_request_duration_seconds_count{route=\"\(route)\"} \(cumulative)\n"
        }

        header(&out, "notification_text_http_requests_in_flight", "gauge", "Requests being handled right now.")
        out += "notification_text_http_requests_in_flight \(metrics.inFlight.load(ordering: .relaxed))\n"

        header(
            &out, "notification_text_bodies_truncated_total", "counter",
            "POST /body answers whose body was truncated (ends with an ellipsis).")
        out += "notification_text_bodies_truncated_total \(metrics.bodiesTruncated.value)\n"

        header(
            &out, "notification_text_input_cuts_total", "counter",
            "POST /body answers whose input was cut at 4096 UTF-16 units.")
        out += "notification_text_input_cuts_total \(metrics.inputCuts.value)\n"

        header(
            &out, "notification_text_connections_rejected_total", "counter",
            "Connections refused before a request on them reached a route (the answer closes them), by reason.")
        for reason in RejectionReason.allCases {
            out +=
                "notification_text_connections_rejected_total{reason=\"\(reason.rawValue)\"} \(metrics.rejections[reason.metricsIndex].value)\n"
        }

        header(&out, "notification_text_server_state", "gauge", "1 for the server's current life-cycle state.")
        for state in [ServerState.starting, .running, .draining, .stopped] {
            out += "notification_text_server_state{state=\"\(state.label)\"} \(state == snapshot.state ? 1 : 0)\n"
        }

        header(&out, "notification_text_build_info", "gauge", "Always 1; labels describe the build.")
        out += "notification_text_build_info{version=\"\(label(snapshot.build.version))\","
        out += "revision=\"\(label(snapshot.build.revision))\",unicode_version=\"\(snapshot.unicodeVersion)\"} 1\n"

        if let resident = snapshot.residentMemoryBytes {
            header(&out, "process_resident_memory_bytes", "gauge", "Resident memory size in bytes.")
            out += "process_resident_memory_bytes \(resident)\n"
        }

        if let charged = snapshot.chargedMemoryBytes {
            header(
                &out, "notification_text_memory_charged_bytes", "gauge",
                "Bytes the connections' buffers hold by the memory budget's count (at most the budget).")
            out += "notification_text_memory_charged_bytes \(charged)\n"
        }

        if let cpu = snapshot.cpuNanoseconds {
            header(&out, "process_cpu_seconds_total", "counter", "Total user and system CPU time spent in seconds.")
            out += "process_cpu_seconds_total \(seconds(cpu))\n"
        }

        if let open = snapshot.openDescriptorCount {
            header(&out, "process_open_fds", "gauge", "Number of open file descriptors.")
            out += "process_open_fds \(open)\n"
        }

        if let maximum = snapshot.maxDescriptorCount {
            header(&out, "process_max_fds", "gauge", "Maximum number of open file descriptors.")
            out += "process_max_fds \(maximum)\n"
        }

        header(
            &out, "process_start_time_seconds", "gauge", "Start time of the process since the Unix epoch in seconds.")
        out += "process_start_time_seconds \(seconds(UInt64(max(0, snapshot.startNanosecondsSinceEpoch))))\n"

        header(&out, "notification_text_uptime_seconds", "gauge", "Seconds since the service started.")
        out +=
            "notification_text_uptime_seconds \(seconds(UInt64(max(0, snapshot.nowNanosecondsSinceEpoch - snapshot.startNanosecondsSinceEpoch))))\n"

        return Array(out.utf8)
    }

    private static func header(_ out: inout String, _ name: String, _ type: String, _ help: String) {
        out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
    }

    /// A label value with `\`, `"` and line feeds escaped, as the format requires.
    static func label(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\\": escaped.append(contentsOf: #"\\"#.unicodeScalars)
            case "\"": escaped.append(contentsOf: #"\""#.unicodeScalars)
            case "\n": escaped.append(contentsOf: #"\n"#.unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }

    /// Nanoseconds as decimal seconds, exact, without trailing zeros: `0.00025`, `1`, `12.5`.
    static func seconds(_ nanoseconds: UInt64) -> String {
        let whole = nanoseconds / 1_000_000_000
        var fraction = nanoseconds % 1_000_000_000
        guard fraction > 0 else { return String(whole) }
        var digits = 9
        while fraction % 10 == 0 {
            fraction /= 10
            digits -= 1
        }
        let text = String(fraction)
        return "\(whole)." + String(repeating: "0", count: digits - text.count) + text
    }
}

extension ServerState {
    /// The state's name in `/readyz` answers and metrics.
    public var label: String {
        switch self {
        case .starting: "starting"
        case .running: "running"
        case .draining: "draining"
        case .stopped: "stopped"
        }
    }
}
