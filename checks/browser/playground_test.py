#!/usr/bin/env python3
"""The playground page (GET /) in a real browser: headless Chromium with
chromedriver (Debian's chromium and chromium-driver), driven by Selenium.

Against the built binary on 127.0.0.1 (any free port), it
  - types Markdown and checks the body, `units / cap`, truncated and inputCut
    the page shows against what POST /body answers for the same input;
  - pastes compose requests and checks the notification, kind, shown, dropped;
    the locale selector sets `locale` in the request, the server default none;
  - checks that problems appear as title and detail;
  - draws a notification as a phone in its language does: every card's chrome
    in the answer's `direction` (ar, he: rtl; en: ltr, as l10n/*.json has it;
    also with /playground.json blocked, so no catalog list can set it), each
    line of its title, subtitle and body in the direction of its own first
    strong character, aligned to its own start on Android and to the
    interface's on iOS (line_layout.py, which cites the platforms' documents),
    the Android header on one line with a long subtitle (cut at its end),
    the app name of `serve --app-name`, the date and "now" in the chosen
    locale (de, ar, he), each collapsed view before its expanded one,
    the collapsed views' line counts and the expanded views bounded in height
    at maxUnits 4096;
  - with --auth-token-file: the page loads without a token, asks for one (one
    line of the file, which holds one token a line),
    sends it as a bearer header, and keeps it out of storage and the page;
  - with --playground off: GET / is 404;
  - checks that every request the page made went to the server on 127.0.0.1
    (Chrome's performance log: Network events) and that the console has no
    error other than the HTTP statuses the checks provoke on purpose;
  - saves screenshots (desktop, a 390 px wide phone viewport, the phones in ar).

The flows are in editing_flows.py (the Body and Compose panels), drawing_flows.py (the phones)
and access_flows.py (headers, the token, local requests), over harness.py (the report, the servers),
driver.py (Chromium and the page) and page_data.py (what the checks send and expect).

Usage: playground_test.py --binary PATH [--screenshots DIR] [--seconds N]
Prints one line per check and, at the end, "browser: N passed, N failed";
exits 1 if any check failed or the time ran out. Nothing is skipped: without
chromium or chromedriver the run fails (`make check-browser` installs them).
"""

import argparse
import json
import pathlib
import shutil
import signal
import sys
import tempfile
import time

from access_flows import check_headers, check_requests_stayed_local, token_flow
from driver import Browser
from drawing_flows import answer_direction_flow, collapsed_flow, direction_flow, header_flow
from editing_flows import body_flow, compose_flow
from harness import OutOfTime, Report, Server, http
from page_data import APP_NAME, TOKEN


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", required=True)
    parser.add_argument("--screenshots", default=".build/playground-screenshots")
    parser.add_argument("--seconds", type=int, default=120)
    arguments = parser.parse_args()

    def out_of_time(*_):
        raise OutOfTime(f"the browser check took longer than {arguments.seconds} s")

    signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(arguments.seconds)
    started = time.monotonic()
    shots = pathlib.Path(arguments.screenshots)
    shots.mkdir(parents=True, exist_ok=True)
    report = Report()
    servers = []
    browser = None
    workdir = tempfile.mkdtemp(prefix="playground-test-")
    try:
        token_file = pathlib.Path(workdir, "token")
        token_file.write_text(TOKEN + "\n")
        open_server = Server(arguments.binary, "--app-name", APP_NAME)
        servers.append(open_server)
        guarded = Server(arguments.binary, "--auth-token-file", str(token_file))
        servers.append(guarded)
        off = Server(arguments.binary, "--playground", "off")
        servers.append(off)

        check_headers(report, open_server)
        status, _, body = http(off.base, "GET", "/")
        report.check(status == 404 and json.loads(body)["code"] == "not-found", "--playground off: GET / is 404")

        browser = Browser(pathlib.Path(workdir, "profile"))
        flows = [
            ("body", lambda: body_flow(report, browser, open_server, shots)),
            ("compose", lambda: compose_flow(report, browser, open_server)),
            ("direction", lambda: direction_flow(report, browser, open_server, shots)),
            ("answer direction", lambda: answer_direction_flow(report, browser, open_server)),
            ("header", lambda: header_flow(report, browser, open_server)),
            ("collapsed", lambda: collapsed_flow(report, browser, open_server, shots)),
            ("token", lambda: token_flow(report, browser, guarded)),
        ]
        for name, flow in flows:
            try:
                flow()
            except OutOfTime:
                raise
            except Exception as failure:  # a flow that cannot go on fails, and the next one still runs
                first_line = str(failure).strip().splitlines()[0] if str(failure).strip() else ""
                report.check(False, f"{name}: {type(failure).__name__}: {first_line}")
        check_requests_stayed_local(report, browser, [open_server.base, guarded.base])
        page_routes = [route for _, route, _ in open_server.routes() + guarded.routes()]
        report.check("unmatched" not in page_routes,
                     "the browser asked for no path the server does not have (no /favicon.ico)")
    except OutOfTime as failure:
        report.check(False, str(failure))
    except Exception as failure:  # a broken setup is a failure, never a skip
        report.check(False, f"{type(failure).__name__}: {failure}")
    finally:
        signal.alarm(0)
        if browser is not None:
            browser.quit()
        for server in servers:
            server.stop()
        shutil.rmtree(workdir, ignore_errors=True)
    print(f"browser: {time.monotonic() - started:.1f} s; screenshots in {shots}")
    print(f"browser: {report.passed} passed, {len(report.failures)} failed")
    return 1 if report.failures else 0


if __name__ == "__main__":
    sys.exit(main())
