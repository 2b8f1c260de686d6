#!/usr/bin/env python3
"""Writes test-fixtures/notification-body.json from the cases below.

Every expected body here was worked out by hand from docs/spec/body.md
(not by running the renderer); `units` is derived from the body. The spec's own
worked examples (docs/spec/body.md section 8, produced by an independent
reference implementation) come first, unchanged.
Run: python3 scripts/gen-body-fixture.py
"""
import json, os

from readable_json import dumps as readable_dumps

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
E = "\u2026"
FAMILY = "\U0001F468\u200d\U0001F469\u200d\U0001F467"  # 8 units, one character
FLAG_FR = "\U0001F1EB\U0001F1F7"                       # 4 units, one character
THUMBS_MEDIUM = "\U0001F44D\U0001F3FD"                 # 4 units, one character
GRIN = "\U0001F600"                                    # 2 units

def units(s):
    return len(s.encode("utf-16-le")) // 2

# The spec's worked examples: (id, text, body, truncated, inputCut), all with maxUnits 256.
EXAMPLES = [
    ("bold", "Hello **world**", "Hello world", False, False),
    ("link-image", "See [the docs](https://x.io/a_(b)) and ![cat](c.png)", "See the docs and cat", False, False),
    ("double-backtick-span", "A `` code with ` backtick `` here", "A code with ` backtick here", False, False),
    ("fence", "```swift\nlet x = 1\n  y = **2**\n```\nDone", "let x = 1\n  y = **2**\nDone", False, False),
    ("code-in-label", "[label with `co]de`](u)", "label with co]de", False, False),
    ("raw-destination", "[a](b`) and `c", "a and `c", False, False),
    ("escapes-stay", "\\*\\*a\\*\\* and \\[a](b)", "\\*\\*a\\*\\* and \\[a](b)", False, False),
    ("scalar-scan", "x `\u0301` y", "x \u0301 y", False, False),
    ("delimiters", "***x*** 2**10 and 3**4 **a ~~b** c~~ a ** b", "*x* 210 and 34 a ~~b c~~ a ** b", False, False),
    ("whitespace", "a    b\t\tc   \n   d", "a b c\nd", False, False),
    ("blank-lines", "one\n\n\n\n\ntwo", "one\n\ntwo", False, False),
    ("cap-300", "x" * 300, "x" * 255 + E, True, False),
    ("cap-zwj", FAMILY * 60, FAMILY * 31 + E, True, False),
    ("input-cut", "y" * 5000, "y" * 255 + E, True, True),
    ("empty-image", "![](img.png)", "", False, False),
    ("tilde-fence-opens", "~~~nope~~~ I mean\nyes", "yes", False, False),
    ("delimiter-runs-pair-once", "**a****b**", "a**b**", False, False),
]

# (id, description, text, body, truncated, inputCut, maxUnits or None)
CASES = [
    # Links, mentions, images
    ("link-basic", "an inline link becomes its label", "[text](https://a.b)", "text", False, False, None),
    ("mention", "a mention is an ordinary link", "Hi [@ana](user://ana), see this", "Hi @ana, see this", False, False, None),
    ("link-label-brackets-nest", "brackets nest inside a label and stay when not a link", "[a [b] c](u)", "a [b] c", False, False, None),
    ("link-inside-label", "a link inside a label is rendered recursively", "[a [b](c) d](e)", "a b d", False, False, None),
    ("link-destination-balanced-parens", "parentheses in the destination balance", "[x](a(b)c) y", "x y", False, False, None),
    ("link-destination-unbalanced", "an unbalanced destination leaves everything literal", "[x](a(b) y", "[x](a(b) y", False, False, None),
    ("link-destination-line-break", "no line break between ( and its )", "[x](a\nb) y", "[x](a\nb) y", False, False, None),
    ("link-label-spans-lines", "the label itself may span lines", "[multi\nline](u) end", "multi\nline end", False, False, None),
    ("link-space-before-paren", "( must follow ] immediately", "[x] (u)", "[x] (u)", False, False, None),
    ("reference-link-stays", "reference links stay as typed", "[x][ref] and [y]", "[x][ref] and [y]", False, False, None),
    ("autolink-stays", "autolinks stay as typed", "<https://x.io> ok", "<https://x.io> ok", False, False, None),
    ("html-stays", "HTML stays as typed", "<b>hi</b>", "<b>hi</b>", False, False, None),
    ("image-alt", "an image becomes its alt text", "![a cat](c.png) meow", "a cat meow", False, False, None),
    ("image-inside-link", "an image inside a link label", "[![logo](l.png) Home](/)", "logo Home", False, False, None),
    ("bang-before-link", "a ! not right before [ is text", "Wow! [x](y)", "Wow! x", False, False, None),
    ("escaped-bracket-in-label", "an escaped ] does not close the label and its backslash stays", "[a\\]b](u)", "a\\]b", False, False, None),
    ("escaped-paren-in-destination", "an escaped ) does not close the destination", "[a](b\\)c) d", "a d", False, False, None),
    ("link-empty-label", "an empty label renders to nothing", "[](u)x", "x", False, False, None),
    ("link-unclosed-destination", "no ) at all", "[a](b", "[a](b", False, False, None),
    ("code-span-hides-bracket", "a code span in a label is atomic while matching ]", "[a `]` b](u)", "a ] b", False, False, None),
    ("code-span-closer-past-label", "a backtick run whose closer lies past every ] hides them", "[a `b](u) c`", "[a b](u) c", False, False, None),
    ("unclosed-backtick-in-label-skipped-alone", "a backtick run with no closer is skipped alone while matching ]", "[a `b](u) c", "a `b c", False, False, None),
    ("code-span-in-label-closer-inside", "the label's own code span ends before ]", "[x `y](u)` z](v)", "x y](u) z", False, False, None),
    ("bang-escaped", "an escaped ! is literal and the link still renders", "\\![a](b)", "\\!a", False, False, None),
    ("image-fails-then-link", "a failed image leaves ![ literal", "![a] [b](c)", "![a] b", False, False, None),
    ("image-inside-image", "nested images", "![![x](y)](z)", "x", False, False, None),
    ("links-nested-deep", "three levels of nested links", "[[[a](b)](c)](d)", "a", False, False, None),
    ("unmatched-bracket-then-link", "an unmatched [ stays and the later link renders", "[a [b](c)", "[a b", False, False, None),
    ("parens-in-label", "parentheses in a label are text", "[f(x)](u)", "f(x)", False, False, None),
    ("brackets-in-destination", "brackets in a destination are not counted", "[a](b[c]d) e", "a e", False, False, None),
    # Code spans
    ("code-basic", "backticks are dropped", "use `foo()` now", "use foo() now", False, False, None),
    ("code-keeps-markdown", "Markdown inside code is never interpreted", "`**not bold** [x](y)`", "**not bold** [x](y)", False, False, None),
    ("code-unclosed", "a run with no closer is literal", "a `b c", "a `b c", False, False, None),
    ("code-backslash-literal", "inside code a backslash is ordinary text", "`a\\`", "a\\", False, False, None),
    ("code-strips-one-space", "one space goes from each end", "`` ` ``", "`", False, False, None),
    ("code-all-spaces-kept", "an all-space code span keeps its spaces and never merges", "x `  ` y", "x    y", False, False, None),
    ("code-line-break-is-space", "a line break in code becomes a space", "a `b\nc` d", "a b c d", False, False, None),
    ("code-line-breaks-then-strip", "line breaks become spaces before the strip", "`\nfoo\n`", "foo", False, False, None),
    ("code-space-at-line-edge", "code space at a paragraph line's edge is trimmed", "` a`", "a", False, False, None),
    ("code-inner-spaces-kept", "spaces inside code do not collapse", "`a   b`", "a   b", False, False, None),
    ("code-tab-kept", "a tab inside code stays", "`a\tb`", "a\tb", False, False, None),
    ("code-longer-run-inside", "a run of another length inside code is content", "`a``b`", "a``b", False, False, None),
    ("code-in-bold", "code inside a bold run", "**bold `code` here**", "bold code here", False, False, None),
    ("bold-in-code", "bold markers inside code stay", "`**x**`", "**x**", False, False, None),
    ("escaped-backtick-not-code", "an escaped backtick cannot open code", "\\`not code`", "\\`not code`", False, False, None),
    ("code-two-backticks-across-lines", "a two-backtick span over three lines", "``\nx\n``", "x", False, False, None),
    ("code-space-no-merge", "a space of a code span never merges with text", "a ` b`", "a  b", False, False, None),
    # Delimiters
    ("strikethrough", "~~ pairs like **", "~~gone~~ here", "gone here", False, False, None),
    ("single-markers-stay", "single * and _ stay", "*em* and _em_", "*em* and _em_", False, False, None),
    ("double-underscore-stays", "__ is not bold here", "__x__", "__x__", False, False, None),
    ("bold-unclosed", "an opener with no closer stays", "**never closed", "**never closed", False, False, None),
    ("bold-space-after-opener", "a run followed by space cannot open", "** a**", "** a**", False, False, None),
    ("bold-space-before-closer", "a run after space cannot close", "**a **", "**a **", False, False, None),
    ("bold-across-line-break", "pairs may span lines of a paragraph", "**a\nb**", "a\nb", False, False, None),
    ("bold-not-across-blank-line", "pairs never cross a blank line", "**a\n\nb**", "**a\n\nb**", False, False, None),
    ("bold-around-strike", "nested pairs of both characters", "**~~x~~**", "x", False, False, None),
    ("four-stars", "runs of four lose two each", "****x****", "**x**", False, False, None),
    ("three-then-two-stars", "the opener loses the two nearest the text", "***a**", "*a", False, False, None),
    ("escaped-star-before-run", "an escaped * is not part of the run after it", "\\***a**", "\\*a", False, False, None),
    ("single-tildes-stay", "single ~ stays", "~a~", "~a~", False, False, None),
    ("different-characters-never-pair", "** does not pair with ~~", "**a~~", "**a~~", False, False, None),
    ("pairs-do-not-cross-label", "a pair never crosses a link boundary", "**[a**](u)", "**a**", False, False, None),
    ("pair-inside-label", "a pair inside a label", "[**a**](u)", "a", False, False, None),
    ("intraword-bold", "runs inside a word can open and close", "foo**bar**baz", "foobarbaz", False, False, None),
    ("five-stars-alone", "a run that can neither open nor close stays", "*****", "*****", False, False, None),
    ("spaced-runs-stay", "runs between spaces stay", "a ** b ** c", "a ** b ** c", False, False, None),
    ("combining-mark-after-run", "a combining mark after ** is not whitespace", "**\u0301a**", "\u0301a", False, False, None),
    # Escapes
    ("escape-before-letter", "a backslash before a non-punctuation character is text", "a\\b \\n", "a\\b \\n", False, False, None),
    ("escaped-backslash", "an escaped backslash does not escape the next *", "\\\\**a**", "\\\\a", False, False, None),
    ("trailing-backslash", "a backslash at the end stays", "end\\", "end\\", False, False, None),
    # Fences
    ("fence-tilde", "a tilde fence keeps Markdown inside", "~~~\ncode  **x**\n~~~", "code  **x**", False, False, None),
    ("fence-unclosed", "an unclosed fence runs to the end; blank lines collapse inside it", "```\nline1\n\n\nline2", "line1\n\nline2", False, False, None),
    ("fence-indented-opening", "content loses up to the opening fence's indentation", "x\n  ```\n    indented\n  back\n```", "x\n  indented\nback", False, False, None),
    ("fence-four-spaces-is-text", "a fence indented 4 spaces is ordinary text", "    ```\ncode\n    ```", "code", False, False, None),
    ("fence-longer-closing", "a longer closing run closes", "````\na\n`````\nb", "a\nb", False, False, None),
    ("fence-shorter-closing-is-content", "a shorter run is content", "````\na\n```\nb", "a\n```\nb", False, False, None),
    ("fence-closing-with-text-is-content", "a closing fence allows only horizontal space after it", "```\na\n``` x\nb", "a\n``` x\nb", False, False, None),
    ("fence-other-character-is-content", "a backtick run does not close a tilde fence", "~~~\na\n```\nb\n~~~\nc", "a\n```\nb\nc", False, False, None),
    ("fence-interrupts-paragraph", "a fence may interrupt a paragraph", "para\n```\ncode\n```\nafter", "para\ncode\nafter", False, False, None),
    ("fence-in-quote-is-text", "only top-level lines are fences", "> ```\n> code", "> ```\n> code", False, False, None),
    ("fence-in-list-is-text", "a fence in a list item is text", "- ```\ncode", "- ```\ncode", False, False, None),
    ("fence-info-with-backtick-is-text", "a backtick fence's info string may not hold a backtick", "```a`b\nc", "```a`b\nc", False, False, None),
    ("fence-closing-indented-three", "a closing fence may be indented 3 spaces", "```\na\n   ```\nb", "a\nb", False, False, None),
    ("fence-closing-indented-four-is-content", "a closing fence indented 4 spaces is content", "```\na\n    ```\nb", "a\n    ```\nb", False, False, None),
    ("fence-closing-trailing-tab", "a closing fence may end in a tab", "```\na\n```\t\nb", "a\nb", False, False, None),
    ("fence-crlf", "CRLF line endings around a fence", "```\r\ncode\r\n```\r\nok", "code\nok", False, False, None),
    ("fence-content-not-trimmed", "fenced content keeps its spaces", "x\n```\n  a   b  \n```\ny", "x\n  a   b  \ny", False, False, None),
    ("fence-blank-lines-collapse", "three or more line feeds collapse in code too", "```\na\n\n\n\nb\n```", "a\n\nb", False, False, None),
    ("fence-empty", "an empty fence produces nothing", "```\n```\nx", "x", False, False, None),
    ("fence-info-dropped", "the info string is dropped", "```python title=\"x\"\nprint(1)\n```", "print(1)", False, False, None),
    ("tilde-fence-info-with-backtick", "a tilde fence's info string may hold backticks", "~~~ a`b\nx\n~~~", "x", False, False, None),
    ("fence-closed-after-cut", "a fence whose closing line fell after the 4096-unit cut runs to the end", "```\n" + "a" * 4100 + "\n```", "a" * 4092 + E, True, True, 4096),
    # Whitespace and lines
    ("tabs-collapse", "spaces and tabs collapse to one space", "a\t \tb", "a b", False, False, None),
    ("nbsp-kept", "NBSP is not whitespace", "a\u00a0\u00a0b", "a\u00a0\u00a0b", False, False, None),
    ("edges-trimmed", "leading and trailing whitespace of the whole result goes", "  \n\n  hi  \n\n  ", "hi", False, False, None),
    ("line-trailing-spaces", "paragraph lines lose trailing space", "a  \nb", "a\nb", False, False, None),
    ("line-endings", "CRLF and CR become LF", "a\r\nb\rc", "a\nb\nc", False, False, None),
    ("cr-blank-lines", "lone CRs make blank lines that collapse", "a\r\r\r\rb", "a\n\nb", False, False, None),
    ("space-merges-across-label", "adjacent text pieces count as one run", "a [ b](u)", "a b", False, False, None),
    ("line-separator-kept", "U+2028 is not a line break here", "a\u2028b", "a\u2028b", False, False, None),
    ("blank-line-with-tabs", "a line of spaces and tabs is blank", "a\n \t \nb", "a\n\nb", False, False, None),
    ("only-whitespace", "whitespace only renders to nothing", "   \n\t\n", "", False, False, None),
    ("empty", "empty text", "", "", False, False, None),
    ("lines-render-empty", "paragraph lines that render empty still count as lines", "a\n![](x)\n![](y)\nb", "a\n\nb", False, False, None),
    ("markdown-stays", "headings, lists, quotes and tables stay as typed", "# Title\n- item\n> quote\n1. one\n| a | b |", "# Title\n- item\n> quote\n1. one\n| a | b |", False, False, None),
    ("snake-case-stays", "snake_case and single stars stay", "use snake_case_name and a*b*c", "use snake_case_name and a*b*c", False, False, None),
    ("bold-link-code", "code in a link label in a bold run", "**see [`x`](u)**", "see x", False, False, None),
    ("emoji-in-link", "astral characters in a label", "[\U0001F389 party](u) time", "\U0001F389 party time", False, False, None),
    ("zwj-after-bracket", "a ZWJ after [ leaves it a bracket", "[\u200dx](u)", "\u200dx", False, False, None),
    ("astral-in-code", "astral characters in code", "`" + GRIN + "`", GRIN, False, False, None),
    # Cap
    ("cap-255", "255 units fit", "x" * 255, "x" * 255, False, False, None),
    ("cap-256", "256 units fit exactly", "x" * 256, "x" * 256, False, False, None),
    ("cap-257", "257 units are cut to 255 plus the ellipsis", "x" * 257, "x" * 255 + E, True, False, None),
    ("cap-trailing-space-removed", "whitespace before the ellipsis goes", "x" * 254 + " " + "y" * 10, "x" * 254 + E, True, False, None),
    ("cap-trailing-line-feeds-removed", "line feeds before the ellipsis go", "x" * 254 + "\n\ny", "x" * 254 + E, True, False, None),
    ("cap-emoji", "surrogate pairs are never split", "x" * 200 + GRIN * 30, "x" * 200 + GRIN * 27 + E, True, False, None),
    ("cap-flags", "a flag (two regional indicators) is one character", FLAG_FR * 70, FLAG_FR * 63 + E, True, False, None),
    ("cap-skin-tone", "an emoji with a skin-tone modifier is one character", THUMBS_MEDIUM * 70, THUMBS_MEDIUM * 63 + E, True, False, None),
    ("cap-combining", "a letter with a combining mark is one character", "e\u0301" * 130, "e\u0301" * 127 + E, True, False, None),
    ("cap-zwj-straddles", "a ZWJ sequence that straddles the cap is dropped whole", "x" * 254 + FAMILY, "x" * 254 + E, True, False, None),
    ("cap-text-ends-with-ellipsis", "a body that ends in its own ellipsis is not truncated", "wait\u2026", "wait\u2026", False, False, None),
    ("max-units-1000", "a larger cap", "x" * 1200, "x" * 999 + E, True, False, 1000),
    ("max-units-4096-fits", "4096 units are not cut", "x" * 4096, "x" * 4096, False, False, 4096),
    ("max-units-300-fits", "a cap above 256 keeps a body that fits it", "y" * 300, "y" * 300, False, False, 300),
    # Input cut
    ("input-cut-4097", "one unit over the input limit", "x" * 4097, "x" * 4095 + E, True, True, 4096),
    ("input-cut-surrogate-straddles", "a surrogate pair at unit 4096 is dropped whole", "x" * 4095 + GRIN, "x" * 4095 + E, True, True, 4096),
    ("input-cut-zwj-straddles", "a ZWJ sequence over unit 4096 is dropped whole", "x" * 4090 + FAMILY, "x" * 4090 + E, True, True, 4096),
    ("input-cut-flag-straddles", "a flag whose first half ends at unit 4096 is dropped whole", "x" * 4094 + FLAG_FR, "x" * 4094 + E, True, True, 4096),
    ("input-cut-crlf-straddles", "CR at unit 4096 followed by LF is one character, dropped whole", "x" * 4095 + "\r\ny", "x" * 4095 + E, True, True, 4096),
    ("input-cut-short-body", "a cut text always ends with the ellipsis", "a" + " " * 5000, "a" + E, True, True, None),
    ("input-cut-renders-empty", "a cut text that renders to nothing is the ellipsis", " " * 5000, E, True, True, None),
    ("input-cut-giant-cluster", "one character longer than the input limit leaves nothing", "a" + "\u0301" * 4200, E, True, True, None),
    ("input-cut-then-cap", "a cut text capped at 256", "x" * 4096 + "y", "x" * 255 + E, True, True, None),
]

def main():
    cases = []
    seen = set()
    for (cid, text, body, truncated, cut) in EXAMPLES:
        assert cid not in seen, cid
        seen.add(cid)
        cases.append({
            "id": cid,
            "description": "worked example of docs/spec/body.md",
            "text": text,
            "body": body,
            "units": units(body),
            "truncated": truncated,
            "inputCut": cut,
        })
    for (cid, desc, text, body, truncated, cut, max_units) in CASES:
        assert cid not in seen, cid
        seen.add(cid)
        case = {"id": cid, "description": desc, "text": text}
        if max_units is not None:
            case["maxUnits"] = max_units
        case.update({"body": body, "units": units(body), "truncated": truncated, "inputCut": cut})
        cases.append(case)
    doc = {
        "comment": [
            "The notification body contract: every platform's tests run every case.",
            "Render `text` with `maxUnits` (256 when absent) by docs/spec/body.md;",
            "expect `body`, its length `units` in UTF-16 code units, `truncated` and `inputCut`.",
            "Strings are JSON in UTF-8; invisible characters (controls, format characters, separators) are \\u escapes.",
        ],
        "cases": cases,
    }
    out = os.path.join(ROOT, "test-fixtures", "notification-body.json")
    with open(out, "w", encoding="utf-8") as f:
        f.write(readable_dumps(doc, indent=1) + "\n")
    print(f"wrote {len(cases)} cases to {out}")

main()
