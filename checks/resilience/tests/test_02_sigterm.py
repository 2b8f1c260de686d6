"""sigterm: SIGTERM under load; every request sent before it is answered

Run by resilience.py (--only sigterm).
"""

import signal
import subprocess
import threading
import time

from client import read_response, request_bytes, connect
from defines import Server, body_request, compose_request, check_no_marker


NAME = "sigterm"


def run(binary, report, options):
    """SIGTERM under load: every request fully sent before the signal gets a complete response."""
    print("sigterm", flush=True)
    rounds = 2 if options.quick else 5
    totals = {"sent_before": 0, "answered_before": 0, "lost": 0, "after_answered": 0, "after_refused": 0}
    for round_index in range(rounds):
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--drain-seconds", "10"])
        signalled_at = [None]
        records = []  # (sent_at, outcome) per request
        lock = threading.Lock()
        stop = threading.Event()

        def client(worker):
            sock = None
            index = 0
            while not stop.is_set():
                index += 1
                heavy = (index + worker) % 3 == 0
                payload = compose_request(index, 400) if heavy else body_request(index)
                data = request_bytes("POST", "/compose" if heavy else "/body", payload)
                try:
                    if sock is None:
                        sock = connect(server.port)
                    sock.sendall(data)
                except OSError:
                    if sock is not None:
                        sock.close()
                    sock = None
                    with lock:
                        records.append((time.monotonic(), "refused"))
                    if signalled_at[0] is not None:
                        return
                    continue
                sent_at = time.monotonic()
                try:
                    status, headers, _ = read_response(sock, sent_at + 20)
                    outcome = f"status {status}"
                    if headers.get("connection", "").lower() == "close":
                        sock.close()
                        sock = None
                except (OSError, ConnectionError) as error:
                    outcome = f"lost: {error}"
                    sock.close()
                    sock = None
                with lock:
                    records.append((sent_at, outcome))
                if signalled_at[0] is not None and time.monotonic() - signalled_at[0] > 1.0:
                    break
            if sock is not None:
                sock.close()

        workers = [threading.Thread(target=client, args=(n,)) for n in range(12)]
        for worker in workers:
            worker.start()
        time.sleep(1.0 + 0.37 * round_index)
        signalled_at[0] = time.monotonic()
        server.process.send_signal(signal.SIGTERM)
        try:
            exit_code = server.process.wait(25)
        except subprocess.TimeoutExpired:
            exit_code = None
        stop.set()
        for worker in workers:
            worker.join(25)
        server.kill()
        cutoff = signalled_at[0]
        before = [outcome for sent_at, outcome in records if sent_at < cutoff and outcome != "refused"]
        after = [outcome for sent_at, outcome in records if sent_at >= cutoff]
        lost = [outcome for outcome in before if outcome != "status 200"]
        lost_lead_ms = sorted(round((cutoff - sent_at) * 1000, 1) for sent_at, outcome in records
                              if sent_at < cutoff and outcome not in ("refused", "status 200"))
        totals["sent_before"] += len(before)
        totals["answered_before"] += len(before) - len(lost)
        totals["lost"] += len(lost)
        totals["after_answered"] += sum(1 for outcome in after if outcome.startswith("status"))
        totals["after_refused"] += sum(1 for outcome in after if not outcome.startswith("status"))
        stop_event = server.stop_event()
        report.check(exit_code == 0, f"sigterm round {round_index + 1}: exit status 0 after draining (got {exit_code})")
        report.check(stop_event is not None and stop_event.get("reason") == "SIGTERM",
                     f"sigterm round {round_index + 1}: stop line names SIGTERM ({stop_event})")
        report.check(not lost, f"sigterm round {round_index + 1}: {len(before)} requests sent before SIGTERM, "
                               f"{len(lost)} without a complete 200 {sorted(set(lost))[:3]}"
                               + (f", sent {lost_lead_ms[:8]} ms before the signal" if lost else ""))
        check_no_marker(report, server, f"sigterm round {round_index + 1}")
    report.figure("sigterm", "rounds", rounds)
    for name, value in totals.items():
        report.figure("sigterm", name, value)
