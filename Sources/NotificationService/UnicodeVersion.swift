/// The Unicode version of the toolchain's character data, which decides
/// grapheme segmentation (docs/spec/body.md asks the service to report it).
enum UnicodeVersion {
    /// "major.minor": the newest `age` of any assigned scalar. Computed once
    /// per process (a scan of the planes that have assigned characters, ~30 ms).
    static let current: String = {
        var best = (major: 0, minor: 0)
        for range in [UInt32(0)...0x3FFFF, 0xE0000...0xE01EF] {
            for value in range {
                guard let scalar = Unicode.Scalar(value), let age = scalar.properties.age else { continue }
                if age.major > best.major || (age.major == best.major && age.minor > best.minor) {
                    best = (age.major, age.minor)
                }
            }
        }
        return "\(best.major).\(best.minor)"
    }()
}
