"""visibility: the adapter's own refusals and accept errors: a JSON line and a counter each;
process_cpu_seconds_total, process_open_fds, process_max_fds

Run by resilience.py (--only visibility).
"""

import resource
import subprocess
import time

from client import connect, one_request, SMUGGLED, head, cl, POST
from defines import MARKER, Server, check_no_marker, classify, proc_cpu_seconds


REJECTION_REASONS = ["bad_request", "headers_too_large", "body_too_large", "bad_framing", "not_implemented",
                     "max_connections", "memory_budget", "accept_error"]


REJECTED_METRIC = "notification_text_connections_rejected_total"


def scrape(port):
    """The metrics text of `port` as {series: value} and {name: type}."""
    _, _, text = one_request(port, "GET", "/metrics")
    values, types = {}, {}
    for line in text.decode().splitlines():
        if line.startswith("# TYPE "):
            _, _, name, kind = line.split(" ", 3)
            types[name] = kind
        elif line and not line.startswith("#"):
            series, _, value = line.rpartition(" ")
            try:
                values[series] = float(value)
            except ValueError:
                pass
    return values, types


def rejected_series(reason):
    return f'{REJECTED_METRIC}{{reason="{reason}"}}'


NAME = "visibility"


def run(binary, report, options):
    """Each refusal the adapter answers itself and each accept error: one JSON line and
    a counter; the standard process_* metrics for CPU and descriptors."""
    print("visibility", flush=True)
    max_fds = 64

    def low_descriptor_limit():
        resource.setrlimit(resource.RLIMIT_NOFILE, (max_fds, max_fds))

    # A connection limit of the server's own (say, one derived from the
    # descriptor limit) must not keep accept() from failing here.
    help_text = subprocess.run([binary, "serve", "--help"], capture_output=True, timeout=20).stdout.decode()
    extra = ["--max-connections", "10000"] if "--max-connections" in help_text else []
    server = Server(binary, ["--threads", "2", "--metrics-port", "0", *extra], preexec_fn=low_descriptor_limit)
    try:
        metrics_port = server.start_line.get("metricsPort")
        before, types = scrape(metrics_port)
        missing = [reason for reason in REJECTION_REASONS if rejected_series(reason) not in before]
        report.check(types.get(REJECTED_METRIC) == "counter" and not missing,
                     f"visibility: {REJECTED_METRIC} is a counter with every reason from the start "
                     f"(missing {missing or 'none'})")
        marker = MARKER.encode()
        triggers = [
            ("bad_request", b"GARBAGE-" + marker + b"\r\n\r\n", (400,)),
            ("headers_too_large", b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Fill: " + marker + b"a" * 20000 + b"\r\n\r\n", (400, 431)),
            ("body_too_large", head(POST, b"Content-Length: 3000000", b"X-Note: " + marker), (413,)),
            ("bad_framing", head(POST, b"Content-Length: 0", cl(SMUGGLED), b"X-Note: " + marker) + SMUGGLED, (400,)),
            ("not_implemented", b"TRACE /" + marker + b" HTTP/1.1\r\nHost: x\r\n\r\n", (501,)),
        ]
        repeat = 3
        for reason, raw, statuses in triggers:
            seen = [event for event in server.events("rejected") if event.get("reason") == reason]
            answered = []
            for _ in range(repeat):
                outcome = classify(server.port, raw, timeout=5)
                answered.append(outcome[1] if outcome[0] == "status" else "close")
            deadline = time.monotonic() + 2
            while True:
                lines = [event for event in server.events("rejected") if event.get("reason") == reason][len(seen):]
                if len(lines) >= repeat or time.monotonic() > deadline:
                    break
                time.sleep(0.05)
            after, _ = scrape(metrics_port)
            delta = after.get(rejected_series(reason), 0) - before.get(rejected_series(reason), 0)
            report.check(all(status in statuses for status in answered),
                         f"visibility: {reason} requests answered {' or '.join(map(str, statuses))} (got {answered})")
            report.check(len(lines) == repeat and all(line.get("status") in statuses for line in lines),
                         f"visibility: {repeat} {reason} rejections → {repeat} lines "
                         f"{{\"event\":\"rejected\",\"reason\":\"{reason}\",\"status\":…}} (got {len(lines)}: {lines[:1]})")
            report.check(delta == repeat, f"visibility: {rejected_series(reason)} rose by {repeat} (by {delta:g})")

        # accept errors: hold more connections than the descriptor limit allows.
        seen = len([event for event in server.events("rejected") if event.get("reason") == "accept_error"])
        before, _ = scrape(metrics_port)
        held = []
        try:
            for _ in range(max_fds + 16):
                held.append(connect(server.port, timeout=2))
            time.sleep(0.5)
            report.figure("visibility", "server_fds_while_holding", server.fd_count())
        finally:
            for sock in held:
                sock.close()
        time.sleep(0.5)
        try:
            status = one_request(server.port, "GET", "/healthz", timeout=5)[0]
        except (OSError, ConnectionError):
            status = None
        report.check(status == 200, f"visibility: serving again after running out of descriptors (got {status})")
        after, _ = scrape(metrics_port)
        lines = [event for event in server.events("rejected") if event.get("reason") == "accept_error"][seen:]
        delta = after.get(rejected_series("accept_error"), 0) - before.get(rejected_series("accept_error"), 0)
        report.figure("visibility", "accept_error_lines_counter", [len(lines), delta])
        report.check(lines and delta == len(lines),
                     f"visibility: accept errors (EMFILE) → lines {{\"event\":\"rejected\",\"reason\":\"accept_error\"}} "
                     f"and {rejected_series('accept_error')} counting the same ({len(lines)} lines, counter +{delta:g})")

        values, types = scrape(metrics_port)
        actual_fds = server.fd_count()
        actual_cpu = proc_cpu_seconds(server.pid)
        cpu = values.get("process_cpu_seconds_total")
        open_fds = values.get("process_open_fds")
        report.figure("visibility", "process_cpu_open_max", [cpu, open_fds, values.get("process_max_fds")])
        report.check(types.get("process_cpu_seconds_total") == "counter" and cpu is not None
                     and 0 < cpu <= actual_cpu + 0.05 and cpu >= actual_cpu - 0.5,
                     f"visibility: process_cpu_seconds_total counter near /proc's {actual_cpu:.2f} s (got {cpu})")
        report.check(types.get("process_open_fds") == "gauge" and open_fds is not None and abs(open_fds - actual_fds) <= 3,
                     f"visibility: process_open_fds gauge near /proc's {actual_fds} (got {open_fds})")
        report.check(types.get("process_max_fds") == "gauge" and values.get("process_max_fds") == max_fds,
                     f"visibility: process_max_fds gauge is the descriptor limit {max_fds} (got {values.get('process_max_fds')})")
        check_no_marker(report, server, "visibility")
    finally:
        server.stop()
