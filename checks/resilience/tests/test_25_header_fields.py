"""header-fields: At most 100 header fields: the 101st is answered 431 and the head is read no further,
so a 16 KB head of 4,000 empty fields costs what a plain request costs (2.1 ms of CPU each before).

Run by resilience.py (--only header-fields).
"""

from client import connect, read_answers, problem_code
from defines import Server, proc_cpu_seconds


NAME = "header-fields"


def run(binary, report, options):
    """At most 100 header fields: the 101st is answered 431 and the head is
    read no further, so a 16 KB head of 4,000 empty fields costs what a plain
    request costs (2.1 ms of CPU each before)."""
    print("header-fields", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        def head(count):
            return b"GET /healthz HTTP/1.1\r\nHost: x\r\n" + b"a:\r\n" * (count - 1) + b"\r\n"
        for count, status in [(100, 200), (101, 431)]:
            with connect(server.port) as sock:
                sock.sendall(head(count))
                answers, _, ending, _ = read_answers(sock, quiet_seconds=0.5, limit_seconds=3.0)
            got = answers[0][0] if answers else None
            code = problem_code(answers[0]) if answers and got != 200 else None
            report.check(got == status and (status == 200 or (code == "header-fields-too-large" and ending == "closed")),
                         f"header-fields: {count} fields answered {status} (got {got}, {code}, {ending})")
        hostile = head(4000)
        count = 300 if options.quick else 2000
        before = proc_cpu_seconds(server.pid)
        for _ in range(count):
            with connect(server.port) as sock:
                sock.sendall(hostile)
                read_answers(sock, quiet_seconds=0.2, limit_seconds=2.0)
        per_head = (proc_cpu_seconds(server.pid) - before) / count * 1e6
        report.figure("header-fields", "cpu_us_per_4000_field_head", round(per_head))
    finally:
        server.stop()
