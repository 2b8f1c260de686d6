"""An independent Python port of docs/spec/body.md (sections 1-7).

It serves two purposes: the peer implementation that `bench/peer/server.py`
serves for the side-by-side HTTP benchmark, and an oracle that
`bench/peer/diff_oracle.py` compares against the Swift renderer.

It is written from the spec text alone, not from the Swift code. Python's
`str` is a sequence of code points, which is exactly the spec's scanning unit
for sections 2-6. Lengths are UTF-16 code units. Character (extended grapheme
cluster) boundaries for the two cuts come from the PyPI `regex` module's
`\\X`, whose Unicode version is `GRAPHEME_UNICODE_VERSION` (the shared fixture
avoids sequences whose segmentation changed between versions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import regex

DEFAULT_MAX_UNITS = 256
LARGEST_MAX_UNITS = 4096
INPUT_MAX_UNITS = 4096
ELLIPSIS = "\u2026"

_GRAPHEME = regex.compile(r"\X")
_ASCII_PUNCTUATION = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
_HORIZONTAL_SPACE = " \t"
_WHITESPACE = " \t\n"
_HORIZONTAL_RUN = re.compile(r"[ \t]+")
_MANY_LINE_FEEDS = re.compile(r"\n{3,}")
_FENCE_OPEN = re.compile(r"^( {0,3})(`{3,}|~{3,})(.*)$", re.DOTALL)


def _regex_unicode_version() -> str:
    """The Unicode version the `regex` module's tables follow, from its metadata."""
    try:
        from importlib.metadata import metadata

        summary = metadata("regex").get_payload() or ""
        found = re.search(r"supports Unicode (\d+\.\d+(?:\.\d+)?)", summary)
        if found:
            return found.group(1)
    except Exception:  # metadata is informational only
        pass
    return "unknown"


GRAPHEME_UNICODE_VERSION = _regex_unicode_version()


@dataclass(frozen=True)
class BodyRendering:
    body: str
    units: int
    truncated: bool
    inputCut: bool

    def as_dict(self) -> dict:
        return {"body": self.body, "units": self.units, "truncated": self.truncated, "inputCut": self.inputCut}


def utf16_units(text: str) -> int:
    """Length in UTF-16 code units (astral code points count 2)."""
    if text.isascii():
        return len(text)
    return len(text) + sum(1 for c in text if ord(c) > 0xFFFF)


def _prefix_of_whole_characters(text: str, max_units: int) -> str:
    """The longest prefix of whole characters of `text` of at most `max_units` units."""
    kept_units = 0
    end = 0
    for match in _GRAPHEME.finditer(text):
        n = utf16_units(match.group())
        if kept_units + n > max_units:
            break
        kept_units += n
        end = match.end()
    return text[:end]


# Section 1 -----------------------------------------------------------------

def input_cut(text: str) -> tuple[str, bool]:
    if utf16_units(text) <= INPUT_MAX_UNITS:
        return text, False
    return _prefix_of_whole_characters(text, INPUT_MAX_UNITS), True


# Section 5: inline rules ---------------------------------------------------
# A paragraph (or link label) becomes a list of pieces: ("text", s), ("code", s)
# or a delimiter run [char, count, can_open, can_close, opener_remaining_side].
# Links are flattened into the pieces of their label, rendered recursively.


class _Run:
    __slots__ = ("char", "count", "can_open", "can_close", "left", "right")

    def __init__(self, char: str, count: int, can_open: bool, can_close: bool):
        self.char = char
        self.count = count
        self.can_open = can_open
        self.can_close = can_close
        self.left = 0  # characters removed on the left side (when it closes)
        self.right = 0  # characters removed on the right side (when it opens)

    def remaining(self) -> str:
        return self.char * (self.count - self.left - self.right)


def _backtick_run_length(s: str, i: int) -> int:
    j = i
    while j < len(s) and s[j] == "`":
        j += 1
    return j - i


def _find_code_closer(s: str, start: int, n: int) -> int:
    """Start of the next run of exactly n backticks at or after `start`, over raw scalars; -1 if none."""
    j = start
    length = len(s)
    while j < length:
        if s[j] == "`":
            m = _backtick_run_length(s, j)
            if m == n:
                return j
            j += m
        else:
            j += 1
    return -1


def _code_content(raw: str) -> str:
    code = raw.replace("\n", " ")
    if len(code) >= 2 and code[0] == " " and code[-1] == " " and code.strip(" ") != "":
        code = code[1:-1]
    return code


def _is_escape(s: str, i: int) -> bool:
    return s[i] == "\\" and i + 1 < len(s) and s[i + 1] in _ASCII_PUNCTUATION


def _find_label_end(s: str, start: int) -> int:
    """Index of the `]` matching the `[` just before `start`; -1 if none."""
    depth = 1
    j = start
    length = len(s)
    while j < length:
        c = s[j]
        if _is_escape(s, j):
            j += 2
            continue
        if c == "`":
            m = _backtick_run_length(s, j)
            closer = _find_code_closer(s, j + m, m)
            j = closer + m if closer >= 0 else j + m
            continue
        if c == "[":
            depth += 1
        elif c == "]":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def _find_destination_end(s: str, start: int) -> int:
    """Index of the `)` matching the `(` just before `start`, on the same line; -1 if none."""
    depth = 1
    j = start
    length = len(s)
    while j < length:
        c = s[j]
        if c == "\n":
            return -1
        if _is_escape(s, j):
            j += 2
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    return -1


def _inline_pieces(s: str) -> list:
    """Sections 5 (scan and delimiter pairing) for one paragraph or label."""
    pieces: list = []
    runs: list[_Run] = []
    text: list[str] = []

    def flush() -> None:
        if text:
            pieces.append(("text", "".join(text)))
            text.clear()

    i = 0
    length = len(s)
    while i < length:
        c = s[i]
        if c == "\\":
            if i + 1 < length and s[i + 1] in _ASCII_PUNCTUATION:
                text.append(s[i : i + 2])
                i += 2
            else:
                text.append(c)
                i += 1
            continue
        if c == "`":
            n = _backtick_run_length(s, i)
            closer = _find_code_closer(s, i + n, n)
            if closer < 0:
                text.append(s[i : i + n])
                i += n
                continue
            flush()
            pieces.append(("code", _code_content(s[i + n : closer])))
            i = closer + n
            continue
        if c == "[" or (c == "!" and i + 1 < length and s[i + 1] == "["):
            label_start = i + 1 if c == "[" else i + 2
            label_end = _find_label_end(s, label_start)
            if label_end >= 0 and label_end + 1 < length and s[label_end + 1] == "(":
                destination_end = _find_destination_end(s, label_end + 2)
                if destination_end >= 0:
                    flush()
                    pieces.extend(_inline_pieces(s[label_start:label_end]))
                    i = destination_end + 1
                    continue
            text.append(c)
            i += 1
            continue
        if c == "*" or c == "~":
            j = i
            while j < length and s[j] == c:
                j += 1
            count = j - i
            if count < 2:
                text.append(c)
                i = j
                continue
            can_open = j < length and s[j] not in _WHITESPACE
            can_close = i > 0 and s[i - 1] not in _WHITESPACE
            flush()
            run = _Run(c, count, can_open, can_close)
            runs.append(run)
            pieces.append(run)
            i = j
            continue
        text.append(c)
        i += 1
    flush()

    stack: list[_Run] = []
    for run in runs:
        if run.can_close:
            found = -1
            for k in range(len(stack) - 1, -1, -1):
                if stack[k].char == run.char:
                    found = k
                    break
            if found >= 0:
                stack[found].right = 2
                run.left = 2
                del stack[found:]
                continue
        if run.can_open:
            stack.append(run)

    return [("text", p.remaining()) if isinstance(p, _Run) else p for p in pieces]


def _render_paragraph(paragraph: str) -> list[str]:
    """A paragraph's output lines: inline rules, then whitespace rules 6.1 and 6.2."""
    out: list[str] = []
    pending_text: list[str] = []
    for kind, value in _inline_pieces(paragraph):
        if kind == "text":
            pending_text.append(value)
        else:
            if pending_text:
                out.append(_HORIZONTAL_RUN.sub(" ", "".join(pending_text)))
                pending_text.clear()
            out.append(value)
    if pending_text:
        out.append(_HORIZONTAL_RUN.sub(" ", "".join(pending_text)))
    return [line.strip(_HORIZONTAL_SPACE) for line in "".join(out).split("\n")]


# Sections 2-6 --------------------------------------------------------------

def render_uncapped(text: str) -> tuple[str, bool]:
    text, was_cut = input_cut(text)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")

    output: list[str] = []
    paragraph: list[str] = []

    def end_paragraph() -> None:
        if paragraph:
            output.extend(_render_paragraph("\n".join(paragraph)))
            paragraph.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        fence = _FENCE_OPEN.match(line)
        if fence and not (fence.group(2)[0] == "`" and "`" in fence.group(3)):
            end_paragraph()
            indent = len(fence.group(1))
            fence_char = fence.group(2)[0]
            fence_length = len(fence.group(2))
            closing = re.compile(r"^ {0,3}" + re.escape(fence_char) + "{" + str(fence_length) + r",}[ \t]*$")
            i += 1
            while i < len(lines) and not closing.match(lines[i]):
                content = lines[i]
                removed = 0
                while removed < indent and removed < len(content) and content[removed] == " ":
                    removed += 1
                output.append(content[removed:])
                i += 1
            i += 1  # the closing fence line, or past the end
            continue
        if line.strip(_HORIZONTAL_SPACE) == "":
            end_paragraph()
            output.append("")
        else:
            paragraph.append(line)
        i += 1
    end_paragraph()

    result = _MANY_LINE_FEEDS.sub("\n\n", "\n".join(output)).strip(_WHITESPACE)
    return result, was_cut


# Section 7 -----------------------------------------------------------------

def apply_cap(text: str, max_units: int, was_cut: bool) -> BodyRendering:
    units = utf16_units(text)
    if units <= max_units and not was_cut:
        return BodyRendering(text, units, False, False)
    kept = _prefix_of_whole_characters(text, max_units - 1).rstrip(_WHITESPACE) + ELLIPSIS
    return BodyRendering(kept, utf16_units(kept), True, was_cut)


def render(text: str, max_units: int = DEFAULT_MAX_UNITS) -> BodyRendering:
    """Sections 1-7: the notification body of `text`."""
    uncapped, was_cut = render_uncapped(text)
    return apply_cap(uncapped, max_units, was_cut)
