"""The terms of docs/spec/compose.md that the push oracle (checks/push/oracle.py) uses: plain
text, UTF-16 units, graphemes, the cap, keys, the app, the group key, and timestamps as exact
Unix seconds."""
import re
from fractions import Fraction

import regex

MESSAGE_TYPES = ("message", "mention", "reply")
WHITE_SPACE = set("\t\n\u000b\u000c\r \u0085\u00a0\u1680\u2028\u2029\u202f\u205f\u3000") | {
    chr(c) for c in range(0x2000, 0x200B)}
ELLIPSIS = "\u2026"


# MARK: compose.md terms

def plain(s):
    if s is None:
        return None
    out, space = [], False
    for c in s:
        if c in WHITE_SPACE:
            space = True
            continue
        if space and out:
            out.append(" ")
        space = False
        out.append(c)
    return "".join(out) or None


def units(s):
    return len(s.encode("utf-16-le")) // 2


def graphemes(s):
    return regex.findall(r"\X", s)


def cap(s, n, cut=False):
    if units(s) <= n and not cut:
        return s
    kept, used = [], 0
    for g in graphemes(s):
        if used + units(g) > n - 1:
            break
        kept.append(g)
        used += units(g)
    text = "".join(kept).rstrip(" \t\n")
    return text + ELLIPSIS


def key_of(n):
    return f"{n['source']}:{n['id']}" if n.get("source") else n["id"]


def app_of(request):
    return plain(request.get("app")) or "Buzz"


def is_group_key(value):
    """compose.md C14: 1 to 64 bytes, each a scalar in U+0021..U+007E other than '"' and '\\'."""
    return 1 <= len(value.encode("utf-8")) <= 64 and all("\x21" <= c <= "\x7e" and c not in "\"\\" for c in value)


# MARK: timestamps (compose.md 2.3) as exact Unix seconds

STAMP = re.compile(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)")


def days_from_civil(y, m, d):
    y -= m <= 2
    era = y // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


def unix(stamp):
    m = STAMP.fullmatch(stamp)
    assert m, stamp
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    frac = Fraction(int(m.group(7)[1:]), 10 ** (len(m.group(7)) - 1)) if m.group(7) else Fraction(0)
    offset = 0
    if m.group(8) not in ("Z", "z"):
        sign = -1 if m.group(8)[0] == "-" else 1
        offset = sign * (int(m.group(8)[1:3]) * 3600 + int(m.group(8)[4:6]) * 60)
    # second 60 (a leap second) is the next second, the same instant as :00 of the next minute
    return days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + s - offset + frac


def is_timestamp(value):
    """compose.md 2.3, as far as the push oracle's cases need it: the shape, and fields in range (a second 60
    only where RFC 3339 places a leap second is not checked: no case has one)."""
    m = STAMP.fullmatch(value)
    if not m:
        return False
    y, mo, d, h, mi, s = (int(m.group(i)) for i in range(1, 7))
    leap = y % 4 == 0 and (y % 100 != 0 or y % 400 == 0)
    days = [31, 29 if leap else 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return 1 <= mo <= 12 and 1 <= d <= days[mo - 1] and h < 24 and mi < 60 and s < 60
