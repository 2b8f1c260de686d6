"""stuck-replies-no-token: the same from paced GET /playground.js, no token: RSS peak < 64 MiB

Run by resilience.py (--only stuck-replies-no-token).
"""

import os
import socket
import time

from client import HOST, one_request
from defines import Server, token_file, jemalloc_env, send_for, stuck_clients


NAME = "stuck-replies-no-token"


def run(binary, report, options):
    """F1 without a token: clients send GET /playground.js (open to all, 12 KB replies) one at a time,
    so no reply finds input behind it, and never read; once replies are stuck they send junk. With
    --auth-token-file on, memory stays bounded all the same."""
    print("stuck-replies-no-token", flush=True)
    seconds = 3.0 if options.quick else 8.0
    path = token_file("memory-scenario-token")
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path], env=jemalloc_env())
    try:
        probe = b"GET /playground.js HTTP/1.1\r\nHost: x\r\n\r\n"
        junk = b"X" * 262144

        def hostile(index, sampler):
            sock = socket.socket()
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
            sock.connect((HOST, server.port))
            with sock:
                # Paced, so no reply finds input behind it, until the replies back up.
                sock.settimeout(0.2)
                taken = 0
                end = time.monotonic() + 2.0
                while time.monotonic() < end and not sampler.exceeded.is_set():
                    try:
                        taken += sock.send(probe)
                    except socket.timeout:
                        break
                    time.sleep(0.001)
                return taken + send_for(sock, junk, seconds, sampler=sampler)

        stuck_clients(report, "stuck-replies-no-token", server, 10, seconds, hostile,
                      "clients without a token pacing GET /playground.js, never reading, then sending junk")
        status, _, _ = one_request(server.port, "GET", "/healthz")
        report.check(server.alive() and status == 200, "stuck-replies-no-token: server still serves afterwards")
    finally:
        server.stop()
        os.unlink(path)
