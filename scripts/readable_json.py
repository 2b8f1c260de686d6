"""JSON text a person can read, for the generators of test-fixtures/: UTF-8 with
every visible character as itself (Arabic, Hebrew, CJK, emoji), and a \\u escape
for each character nobody can see or UTF-8 cannot carry: controls, format
characters (the bidi marks and isolates, joiners), separators other than the
space, private-use and unassigned code points, and unpaired surrogates.
The value is the same either way; only the bytes differ."""
import json
import unicodedata

INVISIBLE_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs"}


def _escape(character):
    code = ord(character)
    if code > 0xFFFF:
        code -= 0x10000
        return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
    return f"\\u{code:04x}"


def readable(text):
    """`text`, JSON written with ensure_ascii=False, with the invisible
    characters (which JSON's syntax never uses outside strings) escaped."""
    return "".join(
        _escape(c) if ord(c) >= 0x7F and unicodedata.category(c) in INVISIBLE_CATEGORIES else c for c in text)


def dumps(value, **options):
    """json.dumps(value, **options) as readable UTF-8 text."""
    return readable(json.dumps(value, ensure_ascii=False, **options))
