"""nagle: A reply over 64 KiB on a kept-alive connection arrives at once: accepted sockets have
TCP_NODELAY, so Nagle's algorithm cannot hold the reply's last segment until the client's delayed
ACK (about 40 ms each time). The time measured is the reply's transfer, from its first byte to its
last, so the cost of composing it (large in a debug build) does not count.

Run by resilience.py (--only nagle).
"""

import socket
import time

from client import connect, read_response, request_bytes
from defines import Server, large_compose_body


NAME = "nagle"


def run(binary, report, options):
    """A reply over 64 KiB on a kept-alive connection arrives at once: accepted
    sockets have TCP_NODELAY, so Nagle's algorithm cannot hold the reply's last
    segment until the client's delayed ACK (about 40 ms each time). The time
    measured is the reply's transfer, from its first byte to its last, so the
    cost of composing it (large in a debug build) does not count."""
    print("nagle", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        body = large_compose_body(count=40)
        sock = connect(server.port)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        transfers = []
        size = 0
        for _ in range(12 if options.quick else 40):
            sock.sendall(request_bytes("POST", "/compose", body, {"Content-Type": "application/json"}))
            received = sock.recv(65536)
            first_byte = time.monotonic()
            _, _, content = read_response(sock, first_byte + 10.0, received)
            transfers.append((time.monotonic() - first_byte) * 1000)
            size = len(content)
        sock.close()
        transfers.sort()
        median = transfers[len(transfers) // 2]
        report.figure("nagle", "reply_bytes", size)
        report.figure("nagle", "median_transfer_ms", round(median, 2))
        report.check(size >= 64 * 1024, f"nagle: the reply is over 64 KiB ({size} bytes)")
        # The median, not one try: on a busy machine one exchange can be slow
        # for reasons of its own, but Nagle's stall would hit every one.
        report.check(median < 5.0, f"nagle: a 64 KiB reply on a kept-alive connection arrives in under 5 ms "
                                   f"(median {median:.2f} ms from its first byte to its last, of {len(transfers)})")
    finally:
        server.stop()
