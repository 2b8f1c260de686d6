#!/usr/bin/env python3
"""Writes test-fixtures/l10n.json, the shared cases of docs/spec/compose.md Part II below
the composer: tags, the choice of a catalog, plural categories and formatted
messages of the catalogs in l10n/.

Every expected value is written out by hand from the spec (and, for the
maximized tags and categories, read off CLDR's tables); nothing here runs an
implementation. checks/l10n/oracle.py --self-test checks them against babel,
the Swift tests against the engine. Run: python3 scripts/gen-l10n-fixture.py
"""
import json
import os

from readable_json import dumps as readable_dumps

FSI, PDI = "\u2068", "\u2069"


def tag(id, text, normalized, maximized, description):
    return {"id": id, "kind": "tag", "description": description, "tag": text, "valid": True,
            "normalized": list(normalized), "maximized": list(maximized)}


def malformed(id, text, description):
    return {"id": id, "kind": "tag", "description": description, "tag": text, "valid": False}


def choose(id, locale, catalog, description, default="en"):
    return {"id": id, "kind": "choose", "description": description, "locale": locale,
            "defaultLocale": default, "catalog": catalog}


def plural(id, locale, count, category, description):
    return {"id": id, "kind": "plural", "description": description, "tag": locale, "count": count,
            "category": category}


def fmt(id, locale, key, expected, description, **arguments):
    return {"id": id, "kind": "format", "description": description, "locale": locale, "key": key,
            "arguments": arguments, "expected": expected}


N = None
CASES = [
    # Section 2: the spec's own examples first.
    tag("tag-spec-zh-tw", "zh-TW", ("zh", N, "TW"), ("zh", "Hant", "TW"), "spec: zh-TW maximizes to zh-Hant-TW"),
    tag("tag-spec-zh", "zh", ("zh", N, N), ("zh", "Hans", "CN"), "spec: zh maximizes to zh-Hans-CN"),
    tag("tag-spec-pt", "pt", ("pt", N, N), ("pt", "Latn", "BR"), "spec: pt maximizes to pt-Latn-BR"),
    tag("tag-spec-pt-underscore", "pt_PT", ("pt", N, "PT"), ("pt", "Latn", "PT"), "spec: _ reads as -"),
    tag("tag-spec-sr-me", "sr-ME", ("sr", N, "ME"), ("sr", "Latn", "ME"), "spec: the key sr_ME gives Latn"),
    tag("tag-spec-iw", "iw", ("he", N, N), ("he", "Hebr", "IL"), "spec: the alias iw is he"),
    tag("tag-spec-zh-latn", "zh-Latn", ("zh", "Latn", N), ("zh", "Latn", "CN"), "spec: only the region is filled"),
    tag("tag-spec-unknown", "xx-YY", ("xx", N, "YY"), ("xx", N, "YY"), "spec: no key found, the script stays missing"),
    tag("tag-case-folding", "ZH-hANT-tw", ("zh", "Hant", "TW"), ("zh", "Hant", "TW"),
        "language lowercased, script titlecased, region uppercased"),
    tag("tag-variant-ignored", "de-CH-1996", ("de", N, "CH"), ("de", "Latn", "CH"), "a variant ends the parse"),
    tag("tag-extension-ignored", "en-u-ca-gregory", ("en", N, N), ("en", "Latn", "US"), "-u- ends the parse"),
    tag("tag-private-use-ignored", "en-x-twain", ("en", N, N), ("en", "Latn", "US"), "-x- ends the parse"),
    tag("tag-numeric-region", "es-419", ("es", N, "419"), ("es", "Latn", "419"), "three digits are a region"),
    tag("tag-variant-before-region", "en-1996-GB", ("en", N, N), ("en", "Latn", "US"),
        "four digits are neither script nor region: GB after them is ignored"),
    tag("tag-three-letters-not-region", "en-USA", ("en", N, N), ("en", "Latn", "US"),
        "three letters are not a region"),
    tag("tag-script-then-variant", "sr-Latn-1996", ("sr", "Latn", N), ("sr", "Latn", "RS"),
        "a variant after the script ends the parse"),
    tag("tag-mixed-separators", "zh_Hant-TW", ("zh", "Hant", "TW"), ("zh", "Hant", "TW"), "_ and - mixed"),
    tag("tag-alias-sh", "sh", ("sr", "Latn", N), ("sr", "Latn", "RS"), "sh is sr with Latn"),
    tag("tag-alias-sh-keeps-script", "sh-Cyrl", ("sr", "Cyrl", N), ("sr", "Cyrl", "RS"),
        "sh adds Latn only when the tag gives no script"),
    tag("tag-alias-no", "no", ("nb", N, N), ("nb", "Latn", "NO"), "no is nb"),
    tag("tag-alias-tl", "tl", ("fil", N, N), ("fil", "Latn", "PH"), "tl is fil"),
    tag("tag-alias-in", "in-ID", ("id", N, "ID"), ("id", "Latn", "ID"), "in is id"),
    tag("tag-alias-mo", "mo", ("ro", N, N), ("ro", "Latn", "RO"), "mo is ro"),
    tag("tag-alias-ji", "ji", ("yi", N, N), ("yi", "Hebr", "UA"), "ji is yi"),
    tag("tag-alias-jw", "jw", ("jv", N, N), ("jv", "Latn", "ID"), "jw is jv"),
    tag("tag-und", "und", ("und", N, N), ("en", "Latn", "US"), "und takes the language of its key"),
    tag("tag-und-region", "und-RU", ("und", N, "RU"), ("ru", "Cyrl", "RU"), "und_RU gives ru"),
    tag("tag-und-script", "und-Hebr", ("und", "Hebr", N), ("he", "Hebr", "IL"), "und_Hebr gives he"),
    tag("tag-und-script-region", "und-Latn-RU", ("und", "Latn", "RU"), ("krl", "Latn", "RU"),
        "the key und_Latn_RU comes first: Karelian"),
    tag("tag-64-characters", "en-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefg", ("en", N, N),
        ("en", "Latn", "US"), "64 characters are allowed"),
    # Section 1: malformed tags.
    malformed("tag-malformed-one-letter", "e", "the language has 2 or 3 letters"),
    malformed("tag-malformed-four-letter-language", "engl", "the language has 2 or 3 letters"),
    malformed("tag-malformed-digit-language", "e1", "the language is letters only"),
    malformed("tag-malformed-digits", "12", "the language is letters only"),
    malformed("tag-malformed-trailing-hyphen", "en-", "an empty subtag"),
    malformed("tag-malformed-leading-hyphen", "-en", "an empty subtag"),
    malformed("tag-malformed-double-hyphen", "en--US", "an empty subtag"),
    malformed("tag-malformed-trailing-underscore", "en_US_", "an empty subtag after _"),
    malformed("tag-malformed-space", "en US", "a space"),
    malformed("tag-malformed-trailing-space", "en-US ", "a trailing space"),
    malformed("tag-malformed-newline", "en-US\n", "a trailing newline"),
    malformed("tag-malformed-dot", "en.US", "a dot"),
    malformed("tag-malformed-nine-characters", "en-abcdefghi", "a subtag of 9 characters"),
    malformed("tag-malformed-non-ascii", "en-\u00dc", "a letter outside ASCII"),
    malformed("tag-malformed-65-characters", "en-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefgh-abcdefgh",
              "more than 64 characters"),
    # Section 3: the spec's examples, then more.
    choose("choose-spec-en-gb", "en-GB", "en", "spec: rule 2 leads to en_001, rule 3 to en"),
    choose("choose-spec-en-au", "en-AU", "en", "spec"),
    choose("choose-spec-pt-br", "pt-BR", "pt", "spec: rule 1, pt is pt-Latn-BR"),
    choose("choose-spec-pt-ao", "pt-AO", "pt-PT", "spec: rule 2, pt_AO has the parent pt_PT"),
    choose("choose-spec-pt-pt-underscore", "pt_PT", "pt-PT", "spec: rule 1"),
    choose("choose-spec-es-mx", "es-MX", "es", "spec: rule 2 leads to es_419, rule 3 to es"),
    choose("choose-spec-zh-hk", "zh-HK", "zh-Hant", "spec: rule 3"),
    choose("choose-spec-zh-mo", "zh-MO", "zh-Hant", "spec: zh_Hant_MO has the parent zh_Hant_HK, then rule 3"),
    choose("choose-spec-zh-tw", "zh-TW", "zh-Hant", "spec: rule 1"),
    choose("choose-spec-zh", "zh", "zh-Hans", "spec: rule 1"),
    choose("choose-spec-zh-sg", "zh-SG", "zh-Hans", "spec: rule 3"),
    choose("choose-spec-sr", "sr", "en", "spec: no catalog fits, the default"),
    choose("choose-spec-de-ch-1996", "de-CH-1996", "de", "spec: rule 3"),
    choose("choose-spec-und", "und", "en", "spec: und is en-Latn-US"),
    choose("choose-spec-iw", "iw", "he", "spec: the alias"),
    choose("choose-absent", None, "en", "absent or null: the default"),
    choose("choose-empty", "", "en", "empty: the default"),
    choose("choose-absent-other-default", None, "de", "the server's default", default="de"),
    choose("choose-no-fit-other-default", "sr", "de", "rule 4 with another default", default="de"),
    choose("choose-default-by-rules", "sr", "pt-PT", "the default itself chosen by rules 1-3", default="pt-AO"),
    choose("choose-unknown-language", "xx-YY", "en", "rule 4"),
    choose("choose-full-tag", "en-Latn-US", "en", "rule 1"),
    choose("choose-case", "EN", "en", "case does not matter"),
    choose("choose-extension", "en-US-u-ca-gregory", "en", "extensions are ignored"),
    choose("choose-fr-ca", "fr-CA", "fr", "rule 3"),
    choose("choose-pt-mo", "pt-MO", "pt-PT", "rule 2"),
    choose("choose-pt-cv", "pt-CV", "pt-PT", "rule 2"),
    choose("choose-zh-hant-hk", "zh-Hant-HK", "zh-Hant", "rule 3"),
    choose("choose-zh-latn", "zh-Latn", "en", "no catalog in the Latin script: the default"),
    choose("choose-und-tw", "und-TW", "zh-Hant", "und_TW is zh_Hant_TW"),
    choose("choose-und-il", "und-IL", "he", "und_IL is he_Hebr_IL"),
    choose("choose-hi-latn", "hi-Latn", "de", "rule 2 leads to en_IN and en_001, no catalog: the default",
           default="de"),
    choose("choose-es-es", "es-ES", "es", "rule 1"),
    choose("choose-es-419", "es-419", "es", "rule 3"),
    choose("choose-ru-ua", "ru-UA", "ru", "rule 3"),
    choose("choose-ar-eg", "ar-EG", "ar", "rule 1"),
    choose("choose-ar-ma", "ar-MA", "ar", "rule 3"),
    choose("choose-nb", "nb", "en", "no Norwegian catalog"),
    choose("choose-malformed", "en_US_", None, "malformed: the invalid-locale problem"),
    choose("choose-malformed-short", "e", None, "malformed: the invalid-locale problem"),
    # Section 5: plural categories.
    plural("plural-spec-pt-0", "pt", 0, "one", "spec: in pt 0 is one"),
    plural("plural-spec-pt-1", "pt", 1, "one", "spec"),
    plural("plural-spec-pt-pt-0", "pt-PT", 0, "other", "spec: in pt-PT only 1 is one"),
    plural("plural-spec-pt-pt-1", "pt-PT", 1, "one", "spec"),
    plural("plural-spec-ru-21", "ru", 21, "one", "spec"),
    plural("plural-spec-ru-11", "ru", 11, "many", "spec"),
    plural("plural-spec-ar-2", "ar", 2, "two", "spec"),
    plural("plural-spec-ar-3", "ar", 3, "few", "spec"),
    plural("plural-spec-ar-10", "ar", 10, "few", "spec"),
    plural("plural-spec-ar-11", "ar", 11, "many", "spec"),
    plural("plural-spec-ar-99", "ar", 99, "many", "spec"),
    plural("plural-ar-0", "ar", 0, "zero", "CLDR"),
    plural("plural-ar-100", "ar", 100, "other", "CLDR"),
    plural("plural-ar-103", "ar", 103, "few", "CLDR: n mod 100"),
    plural("plural-ru-2", "ru", 2, "few", "CLDR"),
    plural("plural-ru-5", "ru", 5, "many", "CLDR"),
    plural("plural-ru-0", "ru", 0, "many", "CLDR"),
    plural("plural-ru-111", "ru", 111, "many", "CLDR"),
    plural("plural-uk-22", "uk", 22, "few", "CLDR"),
    plural("plural-pl-1", "pl", 1, "one", "CLDR"),
    plural("plural-pl-22", "pl", 22, "few", "CLDR"),
    plural("plural-pl-12", "pl", 12, "many", "CLDR"),
    plural("plural-pl-21", "pl", 21, "many", "CLDR: unlike ru"),
    plural("plural-he-2", "he", 2, "two", "CLDR"),
    plural("plural-he-20", "he", 20, "other", "CLDR"),
    plural("plural-fr-0", "fr", 0, "one", "CLDR"),
    plural("plural-fr-1000000", "fr", 1000000, "many", "CLDR: a million"),
    plural("plural-hi-0", "hi", 0, "one", "CLDR"),
    plural("plural-en-0", "en", 0, "other", "CLDR"),
    plural("plural-ja-1", "ja", 1, "other", "CLDR: one category"),
    plural("plural-zh-hant-1", "zh-Hant", 1, "other", "CLDR"),
    # Section 5: formatted messages of the l10n/ catalogs.
    fmt("format-spec-isolated-name", "en", "senders.two", f"Ana and {FSI}محمد{PDI}",
        "spec: an Arabic name in English is isolated", a="Ana", b="محمد"),
    fmt("format-spec-isolated-app", "ar", "summary.title", f"نشاط جديد في {FSI}Buzz{PDI}",
        "spec: a Latin app name in Arabic is isolated", app="Buzz"),
    fmt("format-spec-app-not-isolated", "en", "summary.title", "New activity on Buzz", "spec", app="Buzz"),
    fmt("format-en-bundle-count-1", "en", "bundle.count", "1 new message", "today's English", count=1),
    fmt("format-en-bundle-count-3", "en", "bundle.count", "3 new messages", "today's English", count=3),
    fmt("format-en-summary-count", "en", "summary.count", "1000 new notifications", "no grouping", count=1000),
    fmt("format-en-fallback", "en", "fallback.body", "There might be new activity on Buzz.", "today", app="Buzz"),
    fmt("format-en-message-fallback", "en", "message.fallback", "New message", "no arguments"),
    fmt("format-en-notification-fallback", "en", "notification.fallback", "You have a new notification.", "today"),
    fmt("format-en-three", "en", "senders.three", "Ana, Bo and Cy", "today", a="Ana", b="Bo", c="Cy"),
    fmt("format-en-more-1", "en", "senders.more", "Ana, Bo and 1 other", "one", a="Ana", b="Bo", others=1),
    fmt("format-en-more-2", "en", "senders.more", "Ana, Bo and 2 others", "other", a="Ana", b="Bo", others=2),
    fmt("format-en-preview", "en", "bundle.preview", f"{FSI}محمد{PDI}: سلام", "text is never isolated",
        name="محمد", text="سلام"),
    fmt("format-en-accented-name", "en", "senders.two", "José and Zoë", "Latin letters are L", a="José", b="Zoë"),
    fmt("format-en-rlm", "en", "senders.two", f"Ana and {FSI}\u200fBo{PDI}", "RLM is strong R", a="Ana",
        b="\u200fBo"),
    fmt("format-en-alm", "en", "senders.two", f"Ana and {FSI}\u061c1{PDI}", "ALM is strong AL", a="Ana",
        b="\u061c1"),
    fmt("format-en-lrm", "en", "senders.two", "Ana and \u200e1", "LRM in an ltr catalog stays bare", a="Ana",
        b="\u200e1"),
    fmt("format-en-hebrew-app", "en", "fallback.body", f"There might be new activity on {FSI}אפליקציה{PDI}.",
        "Hebrew is R", app="אפליקציה"),
    fmt("format-ar-digits-app", "ar", "summary.title", "نشاط جديد في 123", "digits are not strong", app="123"),
    fmt("format-ar-empty-app", "ar", "summary.title", "نشاط جديد في ", "an empty value is not isolated", app=""),
    fmt("format-ar-bundle-count-2", "ar", "bundle.count", "رسالتان جديدتان", "two", count=2),
    fmt("format-ar-bundle-count-3", "ar", "bundle.count", "3 رسائل جديدة", "few", count=3),
    fmt("format-ar-bundle-count-11", "ar", "bundle.count", "11 رسالة جديدة", "many", count=11),
    fmt("format-ar-bundle-count-100", "ar", "bundle.count", "100 رسالة جديدة", "other", count=100),
    fmt("format-ar-more", "ar", "senders.more", f"محمد، {FSI}Bo{PDI} و5 أشخاص آخرين", "few; Latin isolated",
        a="محمد", b="Bo", others=5),
    fmt("format-he-two", "he", "senders.two", f"{FSI}Ana{PDI} ו־דנה", "Latin in Hebrew isolated", a="Ana",
        b="דנה"),
    fmt("format-he-more", "he", "senders.more", "דנה, יוסי ועוד 7", "other", a="דנה", b="יוסי", others=7),
    fmt("format-ru-21", "ru", "bundle.count", "21 новое сообщение", "one", count=21),
    fmt("format-ru-11", "ru", "bundle.count", "11 новых сообщений", "many", count=11),
    fmt("format-ru-3", "ru", "bundle.count", "3 новых сообщения", "few", count=3),
    fmt("format-ru-more", "ru", "senders.more", "Аня, Боря и ещё 2 человека", "few", a="Аня", b="Боря", others=2),
    fmt("format-pl-5", "pl", "summary.count", "5 nowych powiadomień", "many", count=5),
    fmt("format-uk-2", "uk", "bundle.count", "2 нові повідомлення", "few", count=2),
    fmt("format-pt-0", "pt", "bundle.count", "0 nova mensagem", "0 is one in pt", count=0),
    fmt("format-pt-pt-0", "pt-PT", "bundle.count", "0 novas mensagens", "0 is other in pt-PT", count=0),
    fmt("format-de-more-1", "de", "senders.more", "Ana, Bo und 1 weitere Person", "one", a="Ana", b="Bo",
        others=1),
    fmt("format-fr-preview", "fr", "bundle.preview", "Ana\u00a0: Salut", "a no-break space before the colon",
        name="Ana", text="Salut"),
    fmt("format-fr-0", "fr", "summary.count", "0 nouvelle notification", "0 is one in fr", count=0),
    fmt("format-es-title", "es", "summary.title", "Novedades en Buzz", "es", app="Buzz"),
    fmt("format-ja-count", "ja", "bundle.count", "5件の新着メッセージ", "one category", count=5),
    fmt("format-ja-arabic-name", "ja", "senders.two", f"Ana、{FSI}محمد{PDI}", "ltr", a="Ana", b="محمد"),
    fmt("format-ko-more", "ko", "senders.more", "Ana, Bo 외 3명", "ko", a="Ana", b="Bo", others=3),
    fmt("format-zh-hans-more", "zh-Hans", "senders.more", "Ana、Bo及其他3人", "zh-Hans", a="Ana", b="Bo",
        others=3),
    fmt("format-zh-hant-preview", "zh-Hant", "bundle.preview", "Ana：你好", "full-width colon", name="Ana",
        text="你好"),
    fmt("format-tr-title", "tr", "summary.title", "Buzz uygulamasında yeni etkinlik", "tr", app="Buzz"),
    fmt("format-hi-fallback", "hi", "fallback.body", "Buzz पर नई गतिविधि हो सकती है।", "hi", app="Buzz"),
    fmt("format-it-count", "it", "bundle.count", "2 nuovi messaggi", "it", count=2),
]


def main():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    fixture = {
        "comment": [
            "Shared cases of the localization rules (docs/spec/compose.md, Part II: the texts and their language) below the composer, written by hand from the spec. Section numbers are those of docs/spec/compose.md.",
            "kind tag: `tag` is well-formed (section 9, rule L2) or not (`valid`); `normalized` is its [language,"
            " script, region] after section 10.1 (rules L3 and L4, the aliases), `maximized` after section 10.2"
            " (rule L5) (null: missing).",
            "kind choose: with the catalogs of l10n/ and the server default `defaultLocale`, the request's `locale`"
            " (null: absent) chooses the catalog `catalog` (sections 9 and 10.3, rules L1 and L6; null: malformed,"
            " the invalid-locale problem).",
            "kind plural: `count`'s CLDR plural category for the catalog tag `tag` (section 12.2).",
            "kind format: the message `key` of l10n/`locale`.json formatted with `arguments` (section 12) is `expected` exactly"
            " (compare by code points). Arguments left out are empty texts or 0.",
            "Generated by scripts/gen-l10n-fixture.py; edit the script, not this file.",
        ],
        "cases": CASES,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test-fixtures", "l10n.json")
    with open(path, "w", encoding="utf-8") as out:
        out.write(readable_dumps(fixture, indent=1) + "\n")
    print(f"wrote {len(CASES)} cases to test-fixtures/l10n.json")


if __name__ == "__main__":
    main()
