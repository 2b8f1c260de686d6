"""Differential oracle: the Python port of docs/spec/body.md against the fixture and the Swift CLI.

1. Every case of the shared fixture (`test-fixtures/notification-body.json`,
   the spec's worked examples included) goes through the Python port and
   through the Swift CLI; each must give the expected body.
2. A few thousand generated Markdown-ish inputs go through both; every
   disagreement is shrunk to a minimal input that still disagrees and printed
   as JSON string literals.

Usage: diff_oracle.py --cli .build/release/notification-text [--count 3000] [--seed 1]
Exit status: 0 when everything agrees, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import body_rules  # noqa: E402

sys.setrecursionlimit(20_000)  # link labels nest; the hostile cases go 800 deep

REPO = Path(__file__).resolve().parents[2]
FIXTURES = [
    REPO / "test-fixtures" / "notification-body.json",
]


class SwiftCLI:
    """`notification-text render --json-lines` as the oracle's other side: each
    request is one line of its stdin, each answer one line of its stdout, the
    `POST /body` JSON (`body`, `units`, `truncated`, `inputCut`)."""

    def __init__(self, cli: str):
        self.cli = cli
        # One long-running process answers the single requests (the shrinking
        # sends thousands, one at a time): it answers each line as it arrives.
        self.process = subprocess.Popen([cli, "render", "--json-lines"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE)
        self.lock = threading.Lock()

    @staticmethod
    def request(text: str, max_units: int) -> bytes:
        return (json.dumps({"text": text, "maxUnits": max_units}, ensure_ascii=False) + "\n").encode("utf-8")

    def render(self, text: str, max_units: int) -> dict:
        with self.lock:
            self.process.stdin.write(self.request(text, max_units))
            self.process.stdin.flush()
            return json.loads(self.process.stdout.readline())

    def render_all(self, items: list[tuple[str, int]]) -> list[dict]:
        """Every (text, maxUnits) through one process of its own, in order."""
        batch = subprocess.Popen([self.cli, "render", "--json-lines"], stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE)

        def feed():
            for text, max_units in items:
                batch.stdin.write(self.request(text, max_units))
            batch.stdin.close()

        writer = threading.Thread(target=feed)
        writer.start()
        answers = [json.loads(line) for line in batch.stdout]
        writer.join()
        batch.wait(timeout=30)
        if len(answers) != len(items):
            raise RuntimeError(f"render --json-lines answered {len(answers)} of {len(items)} lines")
        return answers

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def show(text: str) -> str:
    """A JSON string literal, invisible and non-ASCII characters as \\u escapes."""
    return json.dumps(text, ensure_ascii=True)


# Generated inputs -----------------------------------------------------------

WORDS = ["a", "b", "x", "hi", "Hello", "code", "docs", "@ana", "snake_case", "1", "2**3", "url.io/a_(b)"]
MARKUP = [
    "`", "``", "```", "````", "~~~", "```swift", "~~~~", "[", "]", "(", ")", "![", "](", "](u)", "](u (v))",
    "*", "**", "***", "****", "~", "~~", "~~~~", "\\", "\\*", "\\`", "\\[", "\\]", "\\(", "\\)", "\\\\", "\\~",
    "!", "_", "__", "#", "> ", "- ", "<a>", "<http://x.io>",
    "` a `", "`  `", "` `", "``a` b``", "[a]", "[a](b)", "![a](b)", "[[a](b)](c)", "[a\\](b)", "(a(b)c)",
    "\n```\n", "\n   ```\n", "\n    ```\n", "\n``` x`\n", "\n~~~ `x`\n", "\n```\t\n", "\n```  \n",
    "\n\t```\n", "\n ~~~~\n", "\n  ````js\n",
    "`\u0301", "*\u0301", "**\u0301", "[\u0301", " \u0301", "\u200d`", "~~\u200d", "\\\u0301",
]
SPACES = [" ", " ", "  ", "   ", "    ", "\t", " \t ", "\u00a0", "\u2028", "\u3000"]
BREAKS = ["\n", "\n", "\n\n", "\n\n\n", "\r", "\r\n", "\r\r\n", " \n ", "\n    ", "\n   ", "\n ```\n", "\n~~~\n", "\n```\n", "\n\t\n"]
UNICODE = [
    "\u0301",  # combining acute accent
    "e\u0301",
    "\u200d",  # zero-width joiner alone
    "\U0001F468\u200d\U0001F469\u200d\U0001F467",  # family ZWJ sequence
    "\U0001F44D\U0001F3FD",  # thumbs up with skin tone
    "\U0001F1EB\U0001F1F7",  # flag FR
    "\U0001F1E9\U0001F1EA\U0001F1EF",  # flag DE and a lone regional indicator
    "\u2764\ufe0f",
    "\u00e9", "\u00fc", "\u4e2d\u6587", "\u0645\u0631\u062d\u0628\u0627", "\U0001F600",
    "\u1100\u1161\u11a8",  # Hangul jamo L V T
    "\u0e01\u0e33",  # Thai with SARA AM (spacing mark)
    "\u2026", "\ufeff",
]


def random_piece(rng: random.Random) -> str:
    roll = rng.random()
    if roll < 0.30:
        return rng.choice(WORDS)
    if roll < 0.60:
        return rng.choice(MARKUP)
    if roll < 0.75:
        return rng.choice(SPACES)
    if roll < 0.87:
        return rng.choice(BREAKS)
    return rng.choice(UNICODE)


DENSE = "`*~[]()!\\ \n\ta\r" + "`*[]\\ a"  # single scalars, markup-heavy, for parser corner cases


def random_input(rng: random.Random) -> tuple[str, int]:
    if rng.random() < 0.4:
        text = "".join(rng.choice(DENSE) for _ in range(rng.randint(1, 24)))
        return text, body_rules.DEFAULT_MAX_UNITS
    size = rng.choice([3, 6, 10, 20, 40, 80])
    text = "".join(random_piece(rng) for _ in range(size))
    roll = rng.random()
    if roll < 0.04:
        # Around the 4096-unit input cut: pad so that markup straddles it.
        pad = rng.choice(["x", "\U0001F468\u200d\U0001F469\u200d\U0001F467", "ab ", "\U0001F1EB\U0001F1F7"])
        target = 4096 - rng.randint(0, 12)
        padding = pad * (target // body_rules.utf16_units(pad) + 1)
        text = "```\n" + padding[: max(0, target - 4)] + text if rng.random() < 0.3 else padding + text
    elif roll < 0.10:
        text = text * rng.randint(5, 40)  # around the 256-unit cap
    max_units = rng.choice([256, 256, 256, 257, 300, 4096])
    return text, max_units


def hostile_inputs() -> list[tuple[str, int]]:
    """The renderer benchmark's worst cases (quadratic for a naive parser), plus variants."""
    ticks, length = "", 1
    while body_rules.utf16_units(ticks) < 4096:
        ticks += "`" * length + "x"
        length = length % 40 + 1
    texts = [
        "[" * 4096, "[a](" * 1024, "[" * 800 + "a" + "](u)" * 800, ticks, "**" * 2048, "**a" * 1365,
        "~~a " * 500 + "b** " * 500, "a" + "\u0301" * 5000, "![" * 2000 + "]" * 10, "(" * 3000 + "[a](" + ")" * 10,
        "`" * 3000 + "a" + "`" * 2999, "\\[" * 1500 + "](u)", "```\n" * 1400, "~~~\n" * 1400, "\r\n" * 3000,
        " \t" * 3000, "x" * 4095 + "\U0001F1EB\U0001F1F7", "x" * 4094 + "\r\n", "x" * 4095 + "e\u0301",
    ]
    return [(text, body_rules.DEFAULT_MAX_UNITS) for text in texts]


# Shrinking --------------------------------------------------------------------

def shrink(text: str, max_units: int, disagrees, budget_seconds: float) -> str:
    """Greedily removes chunks of code points while the two sides still disagree."""
    deadline = time.monotonic() + budget_seconds
    current = list(text)
    chunk = max(1, len(current) // 2)
    while chunk >= 1 and time.monotonic() < deadline:
        i = 0
        removed_any = False
        while i < len(current) and time.monotonic() < deadline:
            candidate = current[:i] + current[i + chunk :]
            if candidate != current and disagrees("".join(candidate), max_units):
                current = candidate
                removed_any = True
            else:
                i += chunk
        if not removed_any:
            chunk //= 2
    return "".join(current)


# Main -------------------------------------------------------------------------

def check_fixtures(swift: SwiftCLI | None) -> int:
    failures = 0
    seen: set[Path] = set()
    for path in FIXTURES:
        if not path.exists() or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        cases = json.loads(path.read_text(encoding="utf-8"))["cases"]
        port_bad = swift_bad = 0
        items = [(case["text"], case.get("maxUnits", body_rules.DEFAULT_MAX_UNITS)) for case in cases]
        answers = swift.render_all(items) if swift else [None] * len(cases)
        for case, (text, max_units), answer in zip(cases, items, answers):
            expected = {key: case[key] for key in ("body", "units", "truncated", "inputCut")}
            got = body_rules.render(text, max_units).as_dict()
            if got != expected:
                port_bad += 1
                print(f"  FIXTURE {path.name} {case['id']}: port gives {json.dumps(got, ensure_ascii=True)}, "
                      f"fixture expects {json.dumps(expected, ensure_ascii=True)}")
            if swift and answer != expected:
                swift_bad += 1
                print(f"  FIXTURE {path.name} {case['id']}: swift gives {json.dumps(answer, ensure_ascii=True)}, "
                      f"fixture expects {json.dumps(expected, ensure_ascii=True)}")
        failures += port_bad + swift_bad
        print(f"fixture {path}: {len(cases)} cases, port disagrees on {port_bad}"
              + (f", swift on {swift_bad}" if swift else ""))
    return failures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cli", help="path to the notification-text executable (omit to check fixtures only)")
    parser.add_argument("--count", type=int, default=3000, help="generated inputs (default 3000)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--shrink-seconds", type=float, default=20.0, help="time budget per disagreement")
    parser.add_argument("--max-reports", type=int, default=40, help="distinct minimal disagreements to print")
    args = parser.parse_args()

    print(f"python port: grapheme segmentation from regex {body_rules.regex.__version__} "
          f"(Unicode {body_rules.GRAPHEME_UNICODE_VERSION})")
    swift = SwiftCLI(args.cli) if args.cli else None
    failures = check_fixtures(swift)
    if not swift:
        return 1 if failures else 0

    rng = random.Random(args.seed)
    inputs = hostile_inputs() + [random_input(rng) for _ in range(args.count)]

    # The whole answer is compared: body, units, truncated and inputCut.
    started = time.monotonic()
    answers = swift.render_all(inputs)
    results = [(text, max_units, body_rules.render(text, max_units).as_dict(), answer)
               for (text, max_units), answer in zip(inputs, answers)]
    disagreements = [r for r in results if r[2] != r[3]]
    print(f"generated: {len(results)} inputs ({len(hostile_inputs())} hostile, seed {args.seed}) in {time.monotonic() - started:.1f} s, "
          f"{len(disagreements)} disagree")

    def disagrees(text: str, max_units: int) -> bool:
        return body_rules.render(text, max_units).as_dict() != swift.render(text, max_units)

    reported: dict[tuple[str, int], int] = {}
    for text, max_units, _, _ in sorted(disagreements, key=lambda r: len(r[0])):
        if len(reported) >= args.max_reports:
            break
        minimal = shrink(text, max_units, disagrees, args.shrink_seconds)
        if max_units != body_rules.DEFAULT_MAX_UNITS and disagrees(minimal, body_rules.DEFAULT_MAX_UNITS):
            max_units = body_rules.DEFAULT_MAX_UNITS
        key = (minimal, max_units)
        if key in reported:
            reported[key] += 1
            continue
        reported[key] = 1
        port = body_rules.render(minimal, max_units).as_dict()
        answer = swift.render(minimal, max_units)
        print(f"\nDISAGREE maxUnits={max_units}\n  input: {show(minimal)}\n"
              f"  port:  {json.dumps(port, ensure_ascii=True)}\n  swift: {json.dumps(answer, ensure_ascii=True)}")
        if minimal != text and len(text) < 400:
            print(f"  (shrunk from {show(text)})")
    if disagreements and len(reported) >= args.max_reports:
        print(f"\n(stopped after {args.max_reports} distinct minimal disagreements)")

    swift.close()
    total = failures + len(disagreements)
    print(f"\n{len(results) - len(disagreements)} passed, {len(disagreements)} failed (generated); "
          f"{failures} fixture disagreements")
    return 1 if total else 0


if __name__ == "__main__":
    sys.exit(main())
