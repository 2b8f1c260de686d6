"""nt_configure against the CLI's options: each value of one list, given to
both, is accepted by the module exactly when `compose --app-name` or
`--default-locale` accepts it, and then composes as that command does; null
is absent, and only the two members exist."""

import json
import subprocess
import sys

from hosts import NOW, ROOT, text


APP_NAMES = ["Zed", "A", "x" * 100, "x" * 101, "", "Bienen 🐝 Ünïcødé", "e\u0301" * 100, "e\u0301" * 101,
             "tab\there", "line\nbreak", "next\u0085line", "zero\u200bwidth", "  ", "\u05d1\u05d6"]
DEFAULT_LOCALES = ["en", "ar", "de-AT", "pt-BR", "zh-TW", "sr-Latn-RS", "EN-gb", "tlh", "x--", "", "en_US", "und",
                   "i-klingon", "zh-Hant-HK", "he-IL-u-nu-latn"]
CONFIGURE_REQUESTS = [
    {"now": NOW, "fetch": "failed"},
    {"now": NOW, "notifications": [
        {"id": "1", "type": "message", "timestamp": "2026-11-29T11:58:00Z", "thread": "t", "text": "**Hi**"},
        {"id": "2", "type": "message", "timestamp": "2026-11-29T11:59:00Z", "thread": "t", "text": "there"}]},
]


def run_configure(args, tally):
    sys.path.insert(0, str(ROOT / "wasm/python"))
    from notification_text import NotificationText

    lines = "".join(text(request) + "\n" for request in CONFIGURE_REQUESTS)
    settings = [("appName", "--app-name", value) for value in APP_NAMES] + \
               [("defaultLocale", "--default-locale", value) for value in DEFAULT_LOCALES]
    failed = accepted = 0
    for member, flag, value in settings:
        cli = subprocess.run([args.binary, "compose", "--json-lines", flag, value], input=lines.encode(),
                             capture_output=True)
        rules = NotificationText()
        status, answer = rules.configure({member: value})
        problem = None
        if (cli.returncode == 0) != (status == 200):
            problem = (f"the CLI {'accepts' if cli.returncode == 0 else 'refuses'} it "
                       f"({cli.stderr.decode().strip()}), the module answers {status} {answer}")
        elif status == 200:
            accepted += 1
            module = "".join(rules.answer_compose(request, now=NOW).body + "\n" for request in CONFIGURE_REQUESTS)
            if module != cli.stdout.decode():
                problem = f"composes otherwise\n  cli    {cli.stdout.decode()[:400]}\n  module {module[:400]}"
        elif json.loads(answer).get("pointer") != f"/{member}":
            problem = f"refused without the member's pointer: {answer}"
        if problem:
            failed += 1
            print(f"FAIL configure {member}={value!r}: {problem}")
    # null is absent (as in every request), and only the two members exist.
    rules = NotificationText()
    kept = '{"appName":"Zed","defaultLocale":"de"}'
    steps = [({"appName": "Zed", "defaultLocale": "de"}, 200, kept), ({"appName": None, "defaultLocale": None}, 200, kept),
             ({}, 200, kept), ({"app": "Zed"}, 400, "unknown-member"), ({"appName": 7}, 400, "invalid-type")]
    for request, want_status, want in steps:
        status, answer = rules.configure(request)
        got = answer if status == 200 else json.loads(answer).get("code")
        if (status, got) != (want_status, want):
            failed += 1
            print(f"FAIL configure {text(request)}: want {want_status} {want}, got {status} {answer}")
    total = len(settings) + len(steps)
    tally.add(total - failed, failed)
    print(f"configure against the CLI's --app-name and --default-locale: {total - failed} of {total} as expected "
          f"({accepted} of {len(settings)} values accepted by both, the rest refused by both)")
