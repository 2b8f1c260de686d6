#!/usr/bin/env python3
"""Writes the fuzz seed corpora in fuzz/corpus/<target>/ from fixture files.

Run it again when fixtures change; the output is committed. Each seed is one
small file named after the fixture case id, so a seed that finds a crash can be
traced to its case.

    fuzz/seed_corpus.py [FIXTURE.json ...]

Without arguments it reads every JSON file under test-fixtures/ (body cases
have a `text`, compose cases a `request`) plus a few hand-written hostile
inputs that fixtures do not hold: deep nesting, long delimiter and backtick
runs, characters straddling the 4096-unit cut.
"""
import json
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
CORPUS = ROOT / "fuzz" / "corpus"
MAX_SEED_BYTES = 16_384  # seeds stay small; libFuzzer runs with -max_len above this

HOSTILE_TEXTS = {
    "nested-brackets": "[" * 2000 + "a" + "](u)" * 3,
    "nested-parens": "[a](" + "(" * 2000 + ")" * 1999,
    "backtick-runs": " ".join("`" * n for n in range(1, 60)),
    "star-runs": "**a " * 600 + "b**" * 10,
    "tilde-runs": "~~x ~~~ y " * 300,
    "unclosed-fence": "```\n" + "code line\n" * 300,
    "tilde-fence-in-quote": "> ```\n~~~~ info\n  indented\n~~~~~\n",
    "crlf-mix": "a\r\nb\rc\n\r\n\r\r\n**d**\r",
    "escapes": "\\*\\*a\\*\\* \\`b\\` \\[c](d) \\\\**e**",
    "flag-straddles-cut": "y" * 4095 + "\U0001F1EB\U0001F1F7" * 3,
    "zwj-straddles-cut": "z" * 4090 + "\U0001F468\u200d\U0001F469\u200d\U0001F467" * 2,
    "crlf-straddles-cut": "w" * 4095 + "\r\n" + "tail",
    "combining-after-symbols": "`\u0301a`\u0301 *\u200d*x** [\u0301l](u) ~\u0301~y~~",
    "whitespace-lookalikes": "\u00a0a\u2028b\u3000 \t\n c\u200b",
    "image-label-code": "![`]`](x) ![a ![b](c)](d)",
}

HOSTILE_REQUESTS = {
    "deep-nesting": '{"text":' + "[" * 200 + "]" * 200 + "}",
    # Found by the fuzzer: an unclosed prefix holds more values than a complete
    # text of its length could, so the JSON tape must grow past that bound.
    "unclosed-nesting": '{"text":' + "[" * 61 + "Z" + "[" * 15 + "]]]]Y]]]]]]]}",
    "lone-surrogate": '{"text":"a\\ud800b"}',
    "escaped-pair": '{"text":"\\ud83d\\ude00 \\u0000 \\/"}',
    "duplicate-member": '{"text":"a","text":"b"}',
    "big-numbers": '{"text":"a","maxUnits":1e400}',
    "negative-zero": '{"text":"a","maxUnits":-0.0}',
    "fraction": '{"text":"a","maxUnits":256.5}',
    "compose-nulls": '{"notifications":null,"displayed":null,"now":null,"fetch":"ok"}',
    "compose-locale-rtl": '{"locale":"ar","app":"Buzz","notifications":[{"id":"a","type":"message","thread":"t",'
                          '"timestamp":"2026-01-01T00:00:00Z","sender":{"name":"Ana"},"text":"hi"},{"id":"b",'
                          '"type":"message","thread":"t","timestamp":"2026-01-01T00:00:00Z","sender":{"name":"Bo"}}]}',
    "compose-locale-malformed": '{"fetch":"failed","locale":"en_US\\n"}',
    "compose-leap-second": '{"now":"2016-12-31T23:59:60Z","notifications":[{"id":"a","type":"message",'
                           '"timestamp":"2016-12-31T23:59:60.5+00:00","text":"**hi**"}]}',
    # Names no object defines (compose.md 2.2, unknown-member), in each object, a case variant and an escaped one.
    "compose-unknown-members": '{"now":"2026-01-01T00:00:00Z","notifications":[{"id":"a","type":"message",'
                               '"timestamp":"2026-01-01T00:00:00Z","sender":{"nmae":"A"},"Text":"x"}],'
                               '"displayed":[{"key":"a","timestamp":"2026-01-01T00:00:00Z","Key":"b"}],'
                               '"push":{"badges":1},"preveiw":"none"}',
    "compose-unknown-escaped-name": '{"notifications":[],"\\u0050review":null,"a/b~c":{"x":[1]}}',
    "compose-offsets": '{"now":"2026-01-01T00:00:00-23:59","notifications":[{"id":"a","type":"x",'
                       '"timestamp":"2025-12-31t23:59:59.123456789123z","source":"s"}]}',
}

def write_seed(target: str, name: str, data: bytes) -> None:
    if len(data) > MAX_SEED_BYTES:
        return
    directory = CORPUS / target
    directory.mkdir(parents=True, exist_ok=True)
    safe = re.sub(r"[^A-Za-z0-9._-]", "-", name)
    (directory / safe).write_bytes(data)


def seeds_from(path: pathlib.Path) -> int:
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return 0
    cases = document.get("cases", []) if isinstance(document, dict) else []
    count = 0
    for case in cases:
        if not isinstance(case, dict) or "id" not in case:
            continue
        if isinstance(case.get("text"), str):
            write_seed("render", case["id"], case["text"].encode("utf-8", "surrogatepass"))
            # The same text as a `POST /body` request, for the decoding target.
            request = {"text": case["text"]}
            if isinstance(case.get("maxUnits"), int):
                request["maxUnits"] = case["maxUnits"]
            write_seed("compose", "body-" + case["id"], json.dumps(request, ensure_ascii=False).encode("utf-8", "surrogatepass"))
            count += 2
        if isinstance(case.get("request"), dict):
            body = json.dumps(case["request"], ensure_ascii=False).encode("utf-8", "surrogatepass")
            write_seed("compose", case["id"], body)
            count += 1
    return count


def main(arguments: list[str]) -> None:
    paths = [pathlib.Path(a) for a in arguments] or sorted((ROOT / "test-fixtures").rglob("*.json"))
    total = sum(seeds_from(path) for path in paths)
    for name, text in HOSTILE_TEXTS.items():
        write_seed("render", "hostile-" + name, text.encode("utf-8"))
        total += 1
    for name, body in HOSTILE_REQUESTS.items():
        write_seed("compose", "hostile-" + name, body.encode("utf-8", "surrogatepass"))
        total += 1
    print(f"wrote {total} seeds under {CORPUS.relative_to(ROOT)}")


if __name__ == "__main__":
    main(sys.argv[1:])
