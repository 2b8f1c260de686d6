"""malformed: >= 1000 malformed requests of >= 30 kinds; each gets its 4xx (or a closed connection
where the head is refused before it is sent whole), and the server keeps serving

Run by resilience.py (--only malformed).
"""

import json
import threading
import time

from client import one_request
from defines import Server, body_request, check_no_marker, malformed_kinds, classify


NAME = "malformed"


def run(binary, report, options):
    """A thousand malformed requests of >= 30 kinds; each its 4xx; the server keeps serving."""
    print("malformed", flush=True)
    total = 1000
    kinds = malformed_kinds()
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        results = {name: {} for name, _, _ in kinds}
        wrong = []
        lock = threading.Lock()
        counter = iter(range(total))

        def worker():
            for index in counter:
                name, raw, expectation = kinds[index % len(kinds)]
                outcome = classify(server.port, raw)
                label = f"{outcome[1]}" if outcome[0] == "status" else "close"
                good = False
                if outcome[0] == "status":
                    status = outcome[1]
                    if isinstance(expectation, tuple):
                        try:
                            problem = json.loads(outcome[3])
                        except ValueError:
                            problem = {}
                        good = (status == expectation[0]
                                and outcome[2].get("content-type") == "application/problem+json"
                                and problem.get("code") == expectation[1])
                        label = f"{status} {problem.get('code')}"
                    elif expectation in ("4xx", "4xx-or-close"):
                        good = 400 <= status < 500
                    else:
                        good = status == expectation
                else:
                    good = expectation == "4xx-or-close"
                with lock:
                    results[name][label] = results[name].get(label, 0) + 1
                    if not good:
                        wrong.append((name, label, expectation))

        threads = [threading.Thread(target=worker) for _ in range(4)]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(120)
        elapsed = time.monotonic() - started
        report.figure("malformed", "requests", total)
        report.figure("malformed", "kinds", len(kinds))
        report.figure("malformed", "seconds", round(elapsed, 1))
        report.figure("malformed", "outcomes", {name: outcome for name, outcome in results.items()})
        report.check(len(kinds) >= 30, f"malformed: at least 30 kinds ({len(kinds)})")
        report.check(not wrong, f"malformed: every request got its expected answer ({len(wrong)} did not: {sorted(set(map(str, wrong)))[:5]})")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "malformed: server still serves afterwards")
        check_no_marker(report, server, "malformed")
    finally:
        server.stop()
