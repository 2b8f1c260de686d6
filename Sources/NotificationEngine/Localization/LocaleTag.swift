/// A BCP 47 language tag as compose-l10n.md reads it: a language, and
/// optionally a script and a region; variants, extensions and private use
/// are dropped (section 2).
///
/// Packed into one integer, so parsing, comparing and maximizing allocate
/// nothing: language << 31 | script << 11 | region, where each letter is
/// 1…26 in 5 bits (a two-letter language is shifted as if it had a third,
/// zero letter), a script is four letters (0: none) and a region is 0 (none),
/// 1…676 (two letters) or 677…1676 (three digits). The generated CLDR tables
/// are written in the same packing.
package struct LocaleTag: Hashable, Sendable, CustomStringConvertible {
    /// The longest `locale` a request may send, in characters (section 1).
    package static let maximumCount = 64

    let packed: UInt64

    init(packed: UInt64) {
        self.packed = packed
    }

    init(language: UInt64, script: UInt64, region: UInt64) {
        packed = language << 31 | script << 11 | region
    }

    /// Parses a request's `locale` (sections 1 and 2, steps 1–3): `nil` when
    /// it is malformed, i.e. when, with every `_` read as `-`, it does not
    /// match `[A-Za-z]{2,3}(-[A-Za-z0-9]{1,8})*` or is longer than 64 characters.
    package init?(_ text: String) {
        var text = text
        guard let tag = text.withUTF8({ LocaleTag(utf8: $0) }) else { return nil }
        self = tag
    }

    /// `init(_:)` over UTF-8 bytes. Allocates nothing.
    package init?(utf8: UnsafeBufferPointer<UInt8>) {
        guard let tag = LocaleTag.parse(utf8, applyingAliases: true) else { return nil }
        self = tag
    }

    /// Parses the bytes of a tag, validating section 1 and reading section 2's
    /// steps 1 and 2 (and 3 when `applyingAliases`) in one pass.
    static func parse(_ utf8: UnsafeBufferPointer<UInt8>, applyingAliases: Bool) -> LocaleTag? {
        guard utf8.count <= maximumCount else { return nil }
        var language: UInt64 = 0
        var script: UInt64 = 0
        var region: UInt64 = 0
        // 0: language next; 1: script or region next; 2: region next; 3: the rest is ignored.
        var stage = 0
        var start = 0
        while start <= utf8.count {
            var end = start
            var letters = 0
            var digits = 0
            while end < utf8.count, utf8[end] != UInt8(ascii: "-"), utf8[end] != UInt8(ascii: "_") {
                let byte = utf8[end]
                if (byte | 0x20) >= UInt8(ascii: "a"), (byte | 0x20) <= UInt8(ascii: "z") {
                    letters += 1
                } else if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                    digits += 1
                } else {
                    return nil
                }
                end += 1
            }
            let count = end - start
            guard (1...8).contains(count) else { return nil }
            let subtag = UnsafeBufferPointer(rebasing: utf8[start..<end])
            switch stage {
            case 0:
                guard digits == 0, count <= 3, count >= 2 else { return nil }
                language = packedLetters(subtag) << (count == 2 ? 5 : 0)
                stage = 1
            case 1 where letters == 4 && digits == 0:
                script = packedLetters(subtag)
                stage = 2
            case 1, 2:
                if let value = packedRegion(subtag, letters: letters, digits: digits) { region = value }
                stage = 3
            default:
                break
            }
            start = end + 1
        }
        guard applyingAliases else { return LocaleTag(language: language, script: script, region: region) }
        let (alias, aliasScript) = LocaleTag.alias(of: language)
        return LocaleTag(language: alias, script: script == 0 ? aliasScript : script, region: region)
    }

    /// 5 bits per letter, case-insensitive.
    static func packedLetters(_ subtag: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var value: UInt64 = 0
        for byte in subtag { value = value << 5 | UInt64((byte | 0x20) - 0x60) }
        return value
    }

    static func packedRegion(_ subtag: UnsafeBufferPointer<UInt8>, letters: Int, digits: Int) -> UInt64? {
        if letters == 2, digits == 0 {
            return 1 + UInt64((subtag[0] | 0x20) - 0x61) * 26 + UInt64((subtag[1] | 0x20) - 0x61)
        }
        guard digits == 3, letters == 0 else { return nil }
        var value: UInt64 = 0
        for byte in subtag { value = value * 10 + UInt64(byte - UInt8(ascii: "0")) }
        return 677 + value
    }

    /// Section 2, step 3: the language aliases, and the script `sh` implies.
    static func alias(of language: UInt64) -> (language: UInt64, script: UInt64) {
        switch language {
        case code("iw"): return (code("he"), 0)
        case code("in"): return (code("id"), 0)
        case code("ji"): return (code("yi"), 0)
        case code("jw"): return (code("jv"), 0)
        case code("mo"): return (code("ro"), 0)
        case code("no"): return (code("nb"), 0)
        case code("tl"): return (code("fil"), 0)
        case code("sh"): return (code("sr"), latinScript)
        default: return (language, 0)
        }
    }

    /// The packed bits of a lowercase language code of two or three letters.
    static func code(_ language: StaticString) -> UInt64 {
        let utf8 = UnsafeBufferPointer(start: language.utf8Start, count: language.utf8CodeUnitCount)
        return packedLetters(utf8) << (utf8.count == 2 ? 5 : 0)
    }

    static let undetermined = code("und")
    static let latinScript: UInt64 = 12 << 15 | 1 << 10 | 20 << 5 | 14  // Latn

    // MARK: Subtags

    var languageBits: UInt64 { packed >> 31 }
    var scriptBits: UInt64 { packed >> 11 & 0xF_FFFF }
    var regionBits: UInt64 { packed & 0x7FF }

    /// The language subtag, lowercase: `zh`.
    package var language: String {
        let bits = languageBits
        let letters = bits & 0x1F == 0 ? [bits >> 10, bits >> 5 & 0x1F] : [bits >> 10, bits >> 5 & 0x1F, bits & 0x1F]
        return String(decoding: letters.map { UInt8(0x60 + $0) }, as: UTF8.self)
    }

    /// The script subtag, titlecase (`Hant`), or `nil`.
    package var script: String? {
        let bits = scriptBits
        guard bits != 0 else { return nil }
        let letters = [bits >> 15, bits >> 10 & 0x1F, bits >> 5 & 0x1F, bits & 0x1F]
        return String(decoding: letters.indices.map { UInt8(($0 == 0 ? 0x40 : 0x60) + letters[$0]) }, as: UTF8.self)
    }

    /// The region subtag, uppercase (`TW`) or three digits (`419`), or `nil`.
    package var region: String? {
        let bits = regionBits
        switch bits {
        case 0: return nil
        case 1...676:
            return String(decoding: [UInt8(0x41 + (bits - 1) / 26), UInt8(0x41 + (bits - 1) % 26)], as: UTF8.self)
        default:
            let digits = bits - 677
            return String(
                decoding: [digits / 100, digits / 10 % 10, digits % 10].map { UInt8(0x30 + $0) }, as: UTF8.self)
        }
    }

    /// The tag as BCP 47 writes it: `zh-Hant-TW`.
    package var description: String {
        [language, script, region].compactMap { $0 }.joined(separator: "-")
    }

    /// The same tag without its region.
    var withoutRegion: LocaleTag { LocaleTag(packed: packed & ~0x7FF) }

    // MARK: Likely subtags

    /// Section 2, step 4: the tag with its missing script and region (and,
    /// for `und`, its language) from CLDR's likely subtags. Tries the keys
    /// L_S_R, L_R, L_S and L in that order; fills only what is missing; what
    /// no key gives stays missing. Allocates nothing.
    package var maximized: LocaleTag {
        let language = languageBits
        let script = scriptBits
        let region = regionBits
        var found: UInt64?
        if script != 0, region != 0 { found = LocaleTag.likely(packed) }
        if found == nil, region != 0 { found = LocaleTag.likely(language << 31 | region) }
        if found == nil, script != 0 { found = LocaleTag.likely(language << 31 | script << 11) }
        if found == nil { found = LocaleTag.likely(language << 31) }
        guard let found else { return self }
        let value = LocaleTag(packed: found)
        return LocaleTag(
            language: language == LocaleTag.undetermined ? value.languageBits : language,
            script: script != 0 ? script : value.scriptBits,
            region: region != 0 ? region : value.regionBits)
    }

    static func likely(_ key: UInt64) -> UInt64? {
        SortedTable.index(of: key, in: Tables.likelyKeys.elements).map { Tables.likelyValues.elements[$0] }
    }

    /// Section 3, rule 2: the CLDR parent-locale exception of this (maximized)
    /// tag, from the keys L_S_R, L_R and L_S in that order; `nil` when none.
    var parentException: LocaleTag? {
        let language = languageBits
        let script = scriptBits
        let region = regionBits
        var index: Int?
        if script != 0, region != 0 { index = SortedTable.index(of: packed, in: Tables.parentKeys.elements) }
        if index == nil, region != 0 {
            index = SortedTable.index(of: language << 31 | region, in: Tables.parentKeys.elements)
        }
        if index == nil, script != 0 {
            index = SortedTable.index(of: language << 31 | script << 11, in: Tables.parentKeys.elements)
        }
        return index.map { LocaleTag(packed: Tables.parents.elements[$0]) }
    }
}
