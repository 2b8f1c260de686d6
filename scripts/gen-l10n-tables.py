#!/usr/bin/env python3
"""Writes the localization tables of Sources/NotificationEngine/Localization/Generated/.

- CLDRLikelySubtags.swift, CLDRParentLocales.swift, CLDRPluralRules.swift: the
  CLDR likely subtags, parent-locale exceptions and plural rules, read from
  the PyPI package babel==2.18.0 (docs/spec/compose.md names its copy).
- BidiStrongClasses.swift: which code points are strong L and which strong
  R or AL in Unicode 17.0.0, the toolchain's version: the class of assigned
  code points from unicodedata2==17.0.0, that of unassigned ones from the
  lines of DerivedBidiClass-17.0.0.txt in scripts/data/.
- BuiltInCatalogs.swift: the catalogs of l10n/*.json, the single source of
  truth, as Swift literals (the rules module reads no files).

The same tables, from the same data, as language-neutral JSON for ports, in
test-fixtures/data/: likely-subtags.json, parent-locales.json,
plural-rules.json and bidi-strong-classes.json, each with a `versions` member
(the CLDR and babel versions, or the Unicode and unicodedata2 versions).

Each file is laid out by the toolchain's swift-format (`$SWIFT format`, with
the repository's .swift-format), so `make lint` accepts it as written.

Run in the project's venv: `make l10n-tables` writes the files;
`make check-l10n-tables` (part of `make test`) fails when a checked-in file,
Swift or JSON, differs from what this script writes today. `--compare-icu LIB` also compares
the strong classes with the toolchain's ICU (lib_FoundationICU.so), whose
Unicode version is older: it lists every code point where they differ.
"""
import argparse
import ctypes
import importlib.metadata
import json
import os
import re
import subprocess
import sys

import babel
import unicodedata2
from babel.core import get_global

from l10n_tables_common import (BIDI_UNASSIGNED, CATALOGS, DATA, HEADER, MESSAGE_KEYS, OUT, ROOT, cldr_versions,
                                data_file, hex_rows, json_text, pack, parse_cldr)
from l10n_plural_rules import plural_rules


# MARK: likely subtags and parent locales

def likely_subtags():
    table = get_global("likely_subtags")
    entries = {}
    for key, value in table.items():
        k = parse_cldr(key)
        v = parse_cldr(value)
        assert v[1] and v[2], f"{key} -> {value}: the value is not full"
        # Only und changes the language (section 2, step 4 keeps L otherwise).
        assert k[0] == "und" or k[0] == v[0], f"{key} -> {value}"
        packed = pack(*k)
        assert packed not in entries, key
        entries[packed] = pack(*v)
    keys = sorted(entries)
    exported = data_file(
        f"CLDR's likely subtags, as babel {babel.__version__} has them (babel.core.get_global(\"likely_subtags\")):"
        f" {len(table)} entries. Keys and values are written as babel writes them, with `_`; each value is a full"
        " language_Script_REGION. docs/spec/compose.md section 10.2 (rule L5) says how a tag is maximized with them.",
        cldr_versions(), "likelySubtags", dict(sorted(table.items())))
    return exported, (HEADER.format(source="babel " + babel.__version__ + "'s likely subtags") + f"""
/// CLDR's likely subtags (`babel.core.get_global("likely_subtags")`, {len(keys)}
/// entries), as `LocaleTag` packs them: `keys` sorted, `values[i]` the full
/// (language, script, region) of `keys[i]`.
enum CLDRLikelySubtags {{
    static let keys: [UInt64] = [
{hex_rows(keys, 12)}
    ]

    static let values: [UInt64] = [
{hex_rows([entries[k] for k in keys], 12)}
    ]
}}
""")


def parent_locales():
    table = get_global("parent_exceptions")
    entries = {}
    for key, value in table.items():
        packed = pack(*parse_cldr(key))
        assert packed not in entries, key
        entries[packed] = pack(*parse_cldr(value))
    keys = sorted(entries)
    exported = data_file(
        f"CLDR's parent-locale exceptions, as babel {babel.__version__} has them"
        f" (babel.core.get_global(\"parent_exceptions\")): {len(table)} entries, written with `_`; a parent is"
        " written as CLDR writes it, not maximized. docs/spec/compose.md section 10.3 (rule L6, rule 2) says how"
        " they are followed: only keys with a script or a region are looked up, so a language-only key (`nb`)"
        " is never reached.",
        cldr_versions(), "parentLocales", dict(sorted(table.items())))
    return exported, (HEADER.format(source="babel " + babel.__version__ + "'s parent exceptions") + f"""
/// CLDR's parent-locale exceptions (`babel.core.get_global("parent_exceptions")`,
/// {len(keys)} entries), as `LocaleTag` packs them: `keys` sorted, `parents[i]` the
/// parent of `keys[i]` as written (not maximized).
enum CLDRParentLocales {{
    static let keys: [UInt64] = [
{hex_rows(keys, 12)}
    ]

    static let parents: [UInt64] = [
{hex_rows([entries[k] for k in keys], 12)}
    ]
}}
""")


# MARK: plural rules, specialized for non-negative integer counts


# MARK: bidi strong classes

def unassigned_defaults():
    """(missing ranges in file order, explicit Cn ranges) from the UCD excerpt."""
    text = BIDI_UNASSIGNED.read_text(encoding="utf-8")
    assert "# DerivedBidiClass-17.0.0.txt\n" in text
    names = {"Left_To_Right": "L", "Right_To_Left": "R", "Arabic_Letter": "AL",
             "European_Terminator": "ET", "Boundary_Neutral": "BN"}
    missing, explicit = [], []
    for line in text.splitlines():
        match = re.fullmatch(r"# @missing: ([0-9A-F]+)\.\.([0-9A-F]+); (\w+)", line)
        if match:
            missing.append((int(match[1], 16), int(match[2], 16), names[match[3]]))
            continue
        match = re.match(r"([0-9A-F]+)(?:\.\.([0-9A-F]+))?\s*; (\w+) # Cn", line)
        if match:
            explicit.append((int(match[1], 16), int(match[2] or match[1], 16), match[3]))
    assert missing[0] == (0, 0x10FFFF, "L") and explicit
    return missing, explicit


def bidi_classes():
    """The Bidi_Class of every code point in Unicode 17.0.0."""
    assert unicodedata2.unidata_version == "17.0.0", unicodedata2.unidata_version
    missing, explicit = unassigned_defaults()
    classes = [None] * 0x110000
    for low, high, value in missing:  # later lines are the more specific ones
        for cp in range(low, high + 1):
            classes[cp] = value
    for low, high, value in explicit:
        for cp in range(low, high + 1):
            assert unicodedata2.bidirectional(chr(cp)) == "", f"U+{cp:04X} is assigned"
            classes[cp] = value
    for cp in range(0x110000):
        assigned = unicodedata2.bidirectional(chr(cp))
        if assigned:
            classes[cp] = assigned
    return classes


def strong(value):
    return 1 if value == "L" else 2 if value in ("R", "AL") else 0


def bidi_table(classes):
    runs, previous = [], None
    for cp, value in enumerate(classes):
        s = strong(value)
        if s != previous:
            runs.append(cp << 2 | s)
            previous = s
    counts = [sum(1 for r in runs if r & 3 == s) for s in (0, 1, 2)]
    names = {0: "N", 1: "L", 2: "R"}
    exported = data_file(
        f"The strong bidirectional class of every code point in Unicode {unicodedata2.unidata_version}, as runs:"
        " each entry is [first code point, class] and lasts until the next entry's code point (the last until"
        " U+10FFFF). `L`: Bidi_Class L; `R`: Bidi_Class R or AL; `N`: any other class. Unassigned code points have"
        " their default class (DerivedBidiClass.txt). docs/spec/compose.md section 12.3 uses them for isolation."
        f" {len(runs)} runs.",
        {"unicode": unicodedata2.unidata_version, "unicodedata2": importlib.metadata.version("unicodedata2")},
        "runs", [[r >> 2, names[r & 3]] for r in runs])
    return exported, (HEADER.format(source="unicodedata2 " + unicodedata2.unidata_version
                          + " and scripts/data/\n// DerivedBidiClass-17.0.0-unassigned.txt") + f"""
/// The strong bidirectional class of every code point in Unicode 17.0.0:
/// Bidi_Class L (`leftToRight`), R or AL (`rightToLeft`), anything else
/// (`neutral`), unassigned code points with their default class. Each entry
/// is the first code point of a run << 2 | its class (0 neutral, 1 L, 2 R or
/// AL), sorted; a run lasts until the next entry. {len(runs)} runs: {counts[0]} neutral,
/// {counts[1]} L, {counts[2]} R or AL.
enum BidiStrongClasses {{
    static let unicodeVersion = "17.0.0"

    static let runs: [UInt32] = [
{hex_rows(runs, 7)}
    ]
}}
""")


def compare_icu(classes, library):
    """Lists where the toolchain's ICU disagrees (its Unicode version is older)."""
    icu = ctypes.CDLL(library)
    direction, char_type = icu.swift_u_charDirection, icu.swift_u_charType
    version = (ctypes.c_uint8 * 4)()
    icu.swift_u_getUnicodeVersion(version)
    print(f"ICU Unicode version {'.'.join(map(str, version))}")
    icu_strong = {0: 1, 1: 2, 13: 2}  # U_LEFT_TO_RIGHT, U_RIGHT_TO_LEFT, U_RIGHT_TO_LEFT_ARABIC
    newly_assigned = other = 0
    for cp in range(0x110000):
        ours = strong(classes[cp])
        theirs = icu_strong.get(direction(cp), 0)
        if ours == theirs:
            continue
        if char_type(cp) == 0 and unicodedata2.bidirectional(chr(cp)):
            newly_assigned += 1
        else:
            other += 1
            print(f"U+{cp:04X}: ours {classes[cp]}, ICU direction {direction(cp)}")
    print(f"differences: {newly_assigned} at code points unassigned in ICU's version, {other} elsewhere")
    return other == 0


# MARK: catalogs

def swift_string(text):
    out = []
    for character in text:
        if character in "\\\"":
            out.append("\\" + character)
        elif ord(character) < 0x20 or character in "\u00a0\u200e\u200f\u2068\u2069" or \
                unicodedata2.category(character) in ("Cf", "Zs", "Zl", "Zp") and character != " ":
            out.append(f"\\u{{{ord(character):X}}}")
        else:
            out.append(character)
    return '"' + "".join(out) + '"'


def built_in_catalogs():
    files = sorted(CATALOGS.glob("*.json"))
    assert files, "no catalogs in l10n/"
    entries = []
    for path in files:
        catalog = json.loads(path.read_text(encoding="utf-8"))
        tag = path.name[: -len(".json")]
        assert catalog["locale"] == tag, f"{path.name}: locale {catalog['locale']}"
        assert catalog["direction"] in ("ltr", "rtl"), path.name
        assert sorted(catalog["messages"]) == sorted(MESSAGE_KEYS), f"{path.name}: not the ten keys"
        messages = "\n".join(
            f"                // {key}\n                {swift_string(catalog['messages'][key])}," for key in MESSAGE_KEYS)
        entries.append(f"""        Catalog.Source(
            tag: {swift_string(tag)}, direction: .{catalog['direction']},
            messages: [
{messages}
            ]),""")
    body = "\n".join(entries)
    return (HEADER.format(source="l10n/*.json") + f"""
extension Catalog {{
    /// The catalogs of `l10n/`, one per file in file-name order, each
    /// message in `MessageKey.allCases` order.
    static let builtInSources: [Source] = [
{body}
    ]
}}
""")


def formatted(source):
    """`source` as the toolchain's swift-format lays it out with .swift-format."""
    command = [os.environ.get("SWIFT", "swift"), "format", "--configuration", str(ROOT / ".swift-format"), "-"]
    return subprocess.run(command, input=source, capture_output=True, text=True, check=True).stdout


def outputs(classes):
    """Every file the script writes, by its path: the Swift tables and their JSON."""
    files = {}
    for name, data_name, (exported, source) in [
        ("CLDRLikelySubtags.swift", "likely-subtags.json", likely_subtags()),
        ("CLDRParentLocales.swift", "parent-locales.json", parent_locales()),
        ("CLDRPluralRules.swift", "plural-rules.json", plural_rules()),
        ("BidiStrongClasses.swift", "bidi-strong-classes.json", bidi_table(classes)),
    ]:
        files[OUT / name] = formatted(source)
        files[DATA / data_name] = json_text(exported)
    files[OUT / "BuiltInCatalogs.swift"] = formatted(built_in_catalogs())
    return files


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="compare with the checked-in files, write nothing")
    parser.add_argument("--compare-icu", metavar="LIB", help="also compare the bidi classes with this ICU library")
    args = parser.parse_args()
    assert babel.__version__ == "2.18.0", babel.__version__
    classes = bidi_classes()
    if args.compare_icu and not compare_icu(classes, args.compare_icu):
        return 1
    stale = []
    for path, text in outputs(classes).items():
        if args.check:
            if not path.exists() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path.relative_to(ROOT)))
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
    if stale:
        print("gen-l10n-tables: not what the script writes today (run `make l10n-tables`): "
              + ", ".join(stale), file=sys.stderr)
        return 1
    print("gen-l10n-tables: " + ("tables are current" if args.check
                                 else f"wrote {OUT.relative_to(ROOT)}/ and {DATA.relative_to(ROOT)}/"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
