/// Replaced by the composer's cases when compose lands.
func composeBenchCases() -> [BenchCase] { [] }
