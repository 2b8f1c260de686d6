"""max-connections: past --max-connections a connection waits (or gets one 503)

Run by resilience.py (--only max-connections).
"""

from client import request_bytes, connect, read_answers, describe_outcome, exchange
from defines import Server


NAME = "max-connections"


def run(binary, report, options):
    """Past --max-connections, a new connection waits in the backlog (or gets 503); the others are served."""
    print("max-connections", flush=True)
    limit = 8
    server = Server(binary, ["--threads", "2", "--access-log", "off", "--max-connections", str(limit)])
    held = []
    try:
        for _ in range(limit):
            sock = connect(server.port)
            held.append(sock)
            status, _ = exchange(sock, "GET", "/healthz")
            report.check(status == 200, f"max-connections: connection {len(held)} of {limit} served (got {status})")
        extra = connect(server.port)
        extra.sendall(request_bytes("GET", "/healthz"))
        answers, _, ending, _ = read_answers(extra, quiet_seconds=1.5, limit_seconds=3.0)
        if answers:
            status, headers, _ = answers[0]
            report.figure("max-connections", "connection_past_the_limit", f"answered {status} at once, {ending}")
            report.check(status == 503 and headers.get("content-type") == "application/problem+json"
                         and headers.get("connection", "").lower() == "close" and ending == "closed",
                         f"max-connections: connection {limit + 1} refused with one 503 problem answer and closed "
                         f"(got {describe_outcome((answers, [], ending, 0))})")
        else:
            report.figure("max-connections", "connection_past_the_limit", f"no answer within 1.5 s, {ending}")
            report.check(ending == "open", f"max-connections: connection {limit + 1} waits, neither answered nor closed ({ending})")
            held.pop(0).close()
            answers, _, _, _ = read_answers(extra, quiet_seconds=3.0, limit_seconds=3.0)
            report.check([status for status, _, _ in answers] == [200],
                         f"max-connections: the waiting connection is served once another closes "
                         f"(got {[status for status, _, _ in answers]})")
        extra.close()
        statuses = [exchange(sock, "GET", "/healthz")[0] for sock in held]
        report.check(all(status == 200 for status in statuses),
                     f"max-connections: the connections within the limit are still served ({statuses})")
    finally:
        for sock in held:
            sock.close()
        server.stop()
