"""resets: clients that reset (SO_LINGER 0) mid-body; no descriptor leaks

Run by resilience.py (--only resets).
"""

import socket
import struct
import time

from client import request_bytes, connect, one_request
from defines import Server, body_request


NAME = "resets"


def run(binary, report, options):
    """Clients that reset the connection mid-body leave no descriptor behind."""
    print("resets", flush=True)
    count = 200 if options.quick else 1000
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        one_request(server.port, "GET", "/healthz")
        time.sleep(0.3)
        fds_before = server.fd_count()
        payload = body_request(1)
        linger = struct.pack("ii", 1, 0)
        for index in range(count):
            sock = connect(server.port)
            head = request_bytes("POST", "/body", b"", {"Content-Length": str(len(payload) + 10_000)})
            sock.sendall(head + payload[: (index % len(payload)) + 1])
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            sock.close()  # SO_LINGER 0: an RST instead of a FIN
        status, _, _ = one_request(server.port, "POST", "/body", body_request(2))
        deadline = time.monotonic() + 5
        fds_after = server.fd_count()
        while fds_after > fds_before and time.monotonic() < deadline:
            time.sleep(0.1)
            fds_after = server.fd_count()
        report.figure("resets", "resets", count)
        report.figure("resets", "fds_before_after", [fds_before, fds_after])
        report.check(status == 200 and server.alive(), "resets: server still serves after mid-body resets")
        report.check(fds_after <= fds_before, f"resets: descriptors back to {fds_before} (now {fds_after})")
    finally:
        server.stop()
