/// One benchmark: a name and a closure that does one unit of work and returns
/// something derived from its result, so the optimiser cannot drop the work.
struct BenchCase {
    let name: String
    let run: () -> Int
}
