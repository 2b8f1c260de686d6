"""max-connections: past --max-connections the connection idle longest makes room

Run by resilience.py (--only max-connections).
"""

from client import request_bytes, connect, read_answers, exchange, closed_by_peer
from defines import Server


NAME = "max-connections"


def run(binary, report, options):
    """Past --max-connections, a new connection takes the place of the connection idle longest (closed,
    as a keep-alive connection may be between requests); the others are served."""
    print("max-connections", flush=True)
    limit = 8
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--max-connections", str(limit)])
    held = []
    try:
        for _ in range(limit):
            sock = connect(server.port)
            held.append(sock)
            status, _ = exchange(sock, "GET", "/healthz")
            report.check(status == 200, f"max-connections: connection {len(held)} of {limit} served (got {status})")
        extra = connect(server.port)
        extra.sendall(request_bytes("GET", "/body"))
        answers, _, ending, _ = read_answers(extra, quiet_seconds=1.0, limit_seconds=3.0)
        statuses = [status for status, _, _ in answers]
        report.figure("max-connections", "connection_past_the_limit", f"answered {statuses}, {ending}")
        report.check(statuses == [405] and ending == "open",
                     f"max-connections: connection {limit + 1} served at once on a kept-alive connection "
                     f"(got {statuses}, {ending})")
        report.check(closed_by_peer(held[0], wait_seconds=2.0),
                     "max-connections: the connection idle longest was closed to make room")
        extra.close()
        statuses = [exchange(sock, "GET", "/healthz")[0] for sock in held[1:]]
        report.check(all(status == 200 for status in statuses),
                     f"max-connections: the other connections within the limit are still served ({statuses})")
    finally:
        for sock in held:
            sock.close()
        server.stop()
