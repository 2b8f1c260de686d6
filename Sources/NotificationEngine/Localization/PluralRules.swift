/// A CLDR plural category.
package enum PluralCategory: UInt8, CaseIterable, Sendable {
    case zero, one, two, few, many, other

    /// The keyword a message selector writes: `one`.
    package var name: String {
        switch self {
        case .zero: return "zero"
        case .one: return "one"
        case .two: return "two"
        case .few: return "few"
        case .many: return "many"
        case .other: return "other"
        }
    }
}

/// The CLDR plural rules of one locale, for non-negative integer counts
/// (compose-l10n.md section 5: `babel.Locale.parse(tag).plural_form`). The
/// rules are generated from babel 2.18.0 (`CLDRPluralRules`), not written by hand.
package struct PluralRules: Hashable, Sendable {
    let ruleSet: UInt8

    /// The rules of the locale `tag` names as written (not maximized): those
    /// of `tag` itself when CLDR gives that locale rules of its own (`pt-PT`),
    /// else those of its language; `nil` for a language CLDR has no locale for.
    package init?(tag: LocaleTag) {
        if let index = SortedTable.index(of: tag.packed, in: Tables.pluralExceptionKeys.elements) {
            ruleSet = Tables.pluralExceptionRuleSets.elements[index]
            return
        }
        let languages = Tables.pluralLanguages.elements
        let language = UInt32(truncatingIfNeeded: tag.languageBits)
        var low = 0
        var high = languages.count
        while low < high {
            let middle = (low + high) / 2
            if languages[middle] >> 8 < language { low = middle + 1 } else { high = middle }
        }
        guard low < languages.count, languages[low] >> 8 == language else { return nil }
        ruleSet = UInt8(truncatingIfNeeded: languages[low])
    }

    /// The category of the count `n`.
    /// - Precondition: `n ≥ 0`.
    @inline(__always)
    package func category(_ n: Int) -> PluralCategory {
        precondition(n >= 0, "plural counts are not negative")
        return CLDRPluralRules.category(of: n, ruleSet: ruleSet)
    }
}
