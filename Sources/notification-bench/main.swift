import NotificationService

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// `notification-bench [--iterations N] [filter]`: median wall time per
// operation for each case, over repeated samples. Build with `-c release`;
// figures from debug builds mean nothing. With `--iterations N` each matching
// case instead runs exactly N times, untimed: for callgrind, whose instruction
// counts divided by N give instructions per operation.
// `NOTIFICATION_BENCH_PAYLOADS` names the directory of the HTTP payloads
// (default `bench/payloads`, from the project root).

/// Times `benchCase`: calibrates a batch to about 2 ms, then takes `samples`
/// batches and returns the median nanoseconds per operation.
func medianNanoseconds(_ benchCase: BenchCase, samples: Int = 31) -> (median: Double, sink: Int) {
    var sink = 0
    let clock = ContinuousClock()
    var batch = 1
    while true {
        let elapsed = clock.measure { for _ in 0..<batch { sink &+= benchCase.run() } }
        if elapsed > .milliseconds(2) || batch >= 1 << 20 { break }
        batch *= 2
    }
    var perOperation: [Double] = []
    for _ in 0..<samples {
        let elapsed = clock.measure { for _ in 0..<batch { sink &+= benchCase.run() } }
        let (seconds, attoseconds) = elapsed.components
        perOperation.append((Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(batch))
    }
    perOperation.sort()
    return (perOperation[perOperation.count / 2], sink)
}

// The service's malloc settings, so figures match what it pays per request.
MallocTuning.keepFreedMemory()

var arguments = Array(CommandLine.arguments.dropFirst())
var iterations: Int? = nil
if arguments.first == "--iterations", arguments.count >= 2, let count = Int(arguments[1]), count > 0 {
    iterations = count
    arguments.removeFirst(2)
}
let filter = arguments.first
var cases = bodyBenchCases()
cases += composeBenchCases()
let payloads = ProcessIO.environmentValue("NOTIFICATION_BENCH_PAYLOADS") ?? "bench/payloads"
cases += serviceBenchCases(payloads: payloads)
cases += curveBenchCases()
var sink = 0
if let iterations {
    for benchCase in cases where filter.map({ benchCase.name.contains($0) }) ?? true {
        for _ in 0..<iterations { sink &+= benchCase.run() }
        print("\(benchCase.name): \(iterations) runs")
    }
    if sink == 42 { print("") }  // keeps every result observable
    exit(0)
}
func padded(_ text: String) -> String { text + String(repeating: " ", count: max(1, 58 - text.count)) }
print(padded("case") + "median per operation")
for benchCase in cases where filter.map({ benchCase.name.contains($0) }) ?? true {
    let (median, caseSink) = medianNanoseconds(benchCase)
    sink &+= caseSink
    let figure = median >= 10_000 ? "\(Int(median / 1000)) µs" : "\(Int(median)) ns"
    print(padded(benchCase.name) + figure)
}
if sink == 42 { print("") }  // keeps every result observable
