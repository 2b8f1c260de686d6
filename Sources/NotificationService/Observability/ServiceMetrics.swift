import Synchronization

/// The service's Prometheus metrics.
///
/// Every series has a fixed label set chosen at compile time (routes,
/// statuses, buckets), so recording a request is a few relaxed atomic adds
/// into preallocated cells: no lock, no allocation, no dictionary lookup.
public final class ServiceMetrics: Sendable {
    /// Route labels, in the order of `Route.metricsIndex`.
    static let routeLabels = Route.allCases.map(\.label)
    /// Statuses with their own cell: 200 and every status a `ProblemCode` is
    /// answered with (the error tables of docs/http-api.md); anything else
    /// counts under `other`.
    static let statuses = [200, 400, 401, 404, 405, 413, 414, 415, 417, 431, 500, 501, 503]
    /// Histogram upper bounds in nanoseconds (the exposition prints seconds).
    static let bucketBoundsNanoseconds: [UInt64] = [
        50_000, 100_000, 250_000, 500_000, 1_000_000, 2_500_000, 5_000_000,
        10_000_000, 25_000_000, 50_000_000, 100_000_000, 250_000_000, 500_000_000, 1_000_000_000,
    ]

    /// requests[route * (statuses.count + 1) + statusIndex]
    let requests: [Counter]
    /// buckets[route * (bounds.count + 1) + bucket], not cumulative; the last is +Inf.
    let durationBuckets: [Counter]
    let durationSumNanoseconds: [Counter]
    let inFlight = Atomic<Int64>(0)
    let bodiesTruncated = Counter()
    let inputCuts = Counter()
    /// By `RejectionReason.metricsIndex`.
    let rejections = RejectionReason.allCases.map { _ in Counter() }

    init() {
        let routes = Self.routeLabels.count
        requests = (0..<(routes * (Self.statuses.count + 1))).map { _ in Counter() }
        durationBuckets = (0..<(routes * (Self.bucketBoundsNanoseconds.count + 1))).map { _ in Counter() }
        durationSumNanoseconds = (0..<routes).map { _ in Counter() }
    }

    /// Records one answered request.
    func record(route: Route, status: Int, durationNanoseconds: UInt64) {
        let r = route.metricsIndex
        requests[r * (Self.statuses.count + 1) + Self.statusIndex(status)].add(1)
        var bucket = 0
        let bounds = Self.bucketBoundsNanoseconds
        while bucket < bounds.count && durationNanoseconds > bounds[bucket] { bucket += 1 }
        durationBuckets[r * (bounds.count + 1) + bucket].add(1)
        durationSumNanoseconds[r].add(durationNanoseconds)
    }

    static func statusIndex(_ status: Int) -> Int {
        switch status {
        case 200: 0
        case 400: 1
        case 401: 2
        case 404: 3
        case 405: 4
        case 413: 5
        case 414: 6
        case 415: 7
        case 417: 8
        case 431: 9
        case 500: 10
        case 501: 11
        case 503: 12
        default: statuses.count
        }
    }
}

/// One monotonically increasing counter cell.
final class Counter: Sendable {
    private let storage = Atomic<UInt64>(0)

    func add(_ amount: UInt64) {
        storage.wrappingAdd(amount, ordering: .relaxed)
    }

    var value: UInt64 { storage.load(ordering: .relaxed) }
}
