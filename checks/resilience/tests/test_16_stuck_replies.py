"""stuck-replies: 10 clients whose 1.9 MB replies are stuck go on sending: RSS peak < 64 MiB

Run by resilience.py (--only stuck-replies).
"""

import socket

from client import request_bytes, connect, one_request
from defines import Server, body_request, jemalloc_env, large_compose_body, send_for, stuck_clients


NAME = "stuck-replies"


def run(binary, report, options):
    """F1: 10 clients pipeline four 0.99 MB /compose requests (1.9 MB replies), never read, then send junk:
    reading stops while a reply is pending, so resident memory stays under 64 MiB."""
    print("stuck-replies", flush=True)
    seconds = 3.0 if options.quick else 8.0
    server = Server(binary, ["--threads", "1", "--max-connections", "81", "--access-log", "off"], env=jemalloc_env())
    try:
        one_request(server.port, "GET", "/healthz")
        pipelined = request_bytes("POST", "/compose", large_compose_body()) * 4
        junk = b"X" * 262144

        def hostile(index, sampler):
            with connect(server.port) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                return send_for(sock, pipelined, 1.5, sampler=sampler) + send_for(sock, junk, seconds, sampler=sampler)

        stuck_clients(report, "stuck-replies", server, 10, seconds, hostile,
                      "clients whose replies are stuck and who go on sending")
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "stuck-replies: server still serves afterwards")
    finally:
        server.stop()
