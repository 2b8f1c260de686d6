/// The catalogs a server offers and its default, and the choice of one for a
/// request's `locale` (docs/spec/compose.md section 10.3).
///
/// Choosing allocates nothing, for a tag seen before or not: tags are packed
/// integers, the CLDR tables are sorted arrays searched in place, and the
/// catalogs' maximized tags are compared as integers. So no cache is kept,
/// and a set is a value any thread may read.
package struct CatalogSet: Sendable {
    package let catalogs: [Catalog]
    /// The catalog of the default locale (rule 4).
    package let defaultCatalog: Catalog
    /// Each catalog's tag as written and maximized, packed, by position in `catalogs`.
    let tags: [UInt64]
    let maximizedTags: [UInt64]
    /// Whether each catalog's tag is written without a region (rule 3).
    let regionless: [Bool]

    /// The built-in catalogs (`Catalog.builtIn`) with the default `en`.
    package static let builtIn: CatalogSet = {
        do throws(LocalizationError) {
            return try CatalogSet(Catalog.builtIn)
        } catch {
            fatalError("built-in catalogs: \(error)")  // CatalogSetTests checks them
        }
    }()

    /// The default locale when a server names none.
    package static let defaultLocale = "en"

    /// A set of `catalogs` whose default is the catalog rules 1–3 choose for
    /// `defaultLocale`.
    /// - Throws: `LocalizationError.sameMaximizedTag` when two catalogs'
    ///   tags maximize alike; `.malformedTag` or `.noCatalogFits` for the
    ///   default (a server exits with status 64).
    package init(_ catalogs: [Catalog], defaultLocale: String = CatalogSet.defaultLocale) throws(LocalizationError) {
        var maximizedTags: [UInt64] = []
        for (index, catalog) in catalogs.enumerated() {
            if let earlier = maximizedTags.firstIndex(of: catalog.maximized.packed) {
                throw .sameMaximizedTag(catalogs[earlier].tag, catalogs[index].tag)
            }
            maximizedTags.append(catalog.maximized.packed)
        }
        self.catalogs = catalogs
        self.maximizedTags = maximizedTags
        let tags = catalogs.map { $0.locale.packed }
        self.tags = tags
        regionless = catalogs.map { $0.locale.regionBits == 0 }
        guard let tag = LocaleTag(defaultLocale) else { throw .malformedTag(defaultLocale) }
        // The default is not known yet: rules 1–3 only.
        guard let index = CatalogSet.fitting(tag, tags: tags, maximizedTags: maximizedTags, regionless: regionless)
        else {
            throw .noCatalogFits(defaultLocale)
        }
        defaultCatalog = catalogs[index]
    }

    /// The same catalogs with another default locale (`serve --default-locale`).
    /// - Throws: `.malformedTag` or `.noCatalogFits`.
    package func withDefaultLocale(_ tag: String) throws(LocalizationError) -> CatalogSet {
        try CatalogSet(catalogs, defaultLocale: tag)
    }

    /// The catalog for a request's `locale`: the default when it is absent
    /// or empty, `nil` when it is malformed (the `invalid-locale` problem).
    package func catalog(forLocale locale: String?) -> Catalog? {
        guard var locale, !locale.isEmpty else { return defaultCatalog }
        return locale.withUTF8 { catalog(forUTF8: $0) }
    }

    /// `catalog(forLocale:)` over the UTF-8 of the `locale` member. Allocates nothing.
    package func catalog(forUTF8 locale: UnsafeBufferPointer<UInt8>?) -> Catalog? {
        guard let locale, !locale.isEmpty else { return defaultCatalog }
        guard let tag = LocaleTag(utf8: locale) else { return nil }
        return catalog(for: tag)
    }

    /// The catalog for `tag` by rules 1–4. Allocates nothing.
    package func catalog(for tag: LocaleTag) -> Catalog {
        CatalogSet.fitting(tag, tags: tags, maximizedTags: maximizedTags, regionless: regionless).map { catalogs[$0] }
            ?? defaultCatalog
    }

    /// The catalog rules 1–3 choose for `tag`, or `nil` (rule 4 then gives the default).
    package func fittingCatalog(for tag: LocaleTag) -> Catalog? {
        CatalogSet.fitting(tag, tags: tags, maximizedTags: maximizedTags, regionless: regionless).map { catalogs[$0] }
    }

    /// The catalog for `tag` by rules 1–4, with the rule that chose it and
    /// the parents rule 2 followed (`locale TAG` prints them). The same
    /// steps as `catalog(for:)`, which records none.
    package func choice(for tag: LocaleTag) -> CatalogChoice {
        var steps: CatalogChoice.Steps? = CatalogChoice.Steps()
        let index = CatalogSet.fitting(
            tag, tags: tags, maximizedTags: maximizedTags, regionless: regionless, steps: &steps)
        return CatalogChoice(
            catalog: index.map { catalogs[$0] } ?? defaultCatalog, rule: index == nil ? 4 : steps!.rule,
            parents: steps!.parents)
    }

    /// Rules 1–3: the position of the catalog for `tag`, or `nil`.
    static func fitting(_ tag: LocaleTag, tags: [UInt64], maximizedTags: [UInt64], regionless: [Bool]) -> Int? {
        var steps: CatalogChoice.Steps? = nil
        return fitting(tag, tags: tags, maximizedTags: maximizedTags, regionless: regionless, steps: &steps)
    }

    /// Rules 1–3, noting in `steps` (when not nil) the rule that fits and
    /// the parents rule 2 looks at.
    static func fitting(
        _ tag: LocaleTag, tags: [UInt64], maximizedTags: [UInt64], regionless: [Bool],
        steps: inout CatalogChoice.Steps?
    ) -> Int? {
        // A catalog's own tag maximizes to that catalog's triple, which rule 1
        // then finds (no two catalogs share one): the common case, without
        // the tables.
        steps?.rule = 1
        if let index = tags.firstIndex(of: tag.packed) { return index }
        let requested = tag.maximized
        // Rule 1: the same language, script and region.
        if let index = maximizedTags.firstIndex(of: requested.packed) { return index }
        // Rule 2: at most 5 parents, each found by one lookup of the keys
        // L_S_R, L_R, L_S of the triple before it in CLDR's parent-locale exceptions.
        steps?.rule = 2
        var current = requested
        for _ in 0..<CatalogChoice.maximumParentCount {
            guard let parent = current.parentException else { break }
            steps?.parents.append(parent)
            current = parent.maximized
            if let index = maximizedTags.firstIndex(of: current.packed) { return index }
        }
        // Rule 3: a catalog written without a region, of the same language and script.
        steps?.rule = 3
        let languageAndScript = requested.withoutRegion.packed
        for index in maximizedTags.indices
        where regionless[index] && maximizedTags[index] & ~0x7FF == languageAndScript {
            return index
        }
        return nil
    }
}

/// How a tag chose its catalog (compose.md section 10.3): the catalog, the
/// rule of L6 that chose it, and the CLDR parents rule 2 followed.
package struct CatalogChoice: Sendable {
    /// Rule 2 follows at most this many parents.
    package static let maximumParentCount = 5

    package let catalog: Catalog
    /// 1 (equal), 2 (CLDR parent), 3 (same language and script) or 4 (the default).
    package let rule: Int
    /// The parent-locale exceptions rule 2 found, in order, as CLDR writes
    /// them (not maximized); empty when rule 1 chose.
    package let parents: [LocaleTag]

    struct Steps {
        var rule = 1
        var parents: [LocaleTag] = []
    }
}

extension CatalogSet: Equatable {
    /// Two sets are equal when they hold the same catalogs (the same objects,
    /// in the same order) and the same default.
    package static func == (a: CatalogSet, b: CatalogSet) -> Bool {
        a.defaultCatalog === b.defaultCatalog && a.catalogs.elementsEqual(b.catalogs, by: ===)
    }
}
