"""reason-phrases: RFC 9110 reason phrases on every status the service sends

Run by resilience.py (--only reason-phrases).
"""

import os

from client import request_bytes, connect, read_answers
from defines import Server, body_request, token_file


REASON_PHRASES = {200: "OK", 400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 405: "Method Not Allowed",
                  413: "Content Too Large", 414: "URI Too Long", 415: "Unsupported Media Type"}


NAME = "reason-phrases"


def run(binary, report, options):
    """Each status the service answers carries its RFC 9110 reason phrase."""
    print("reason-phrases", flush=True)
    token = "tok-" + os.urandom(12).hex()
    path = token_file(token)
    authorized = {"Authorization": "Bearer " + token}
    try:
        server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", path])
        try:
            requests = [
                (200, request_bytes("GET", "/healthz", keep_alive=False)),
                (400, request_bytes("POST", "/body", b"{", authorized, keep_alive=False)),
                (401, request_bytes("POST", "/body", body_request(1), keep_alive=False)),
                (404, request_bytes("GET", "/nope", b"", authorized, keep_alive=False)),
                (405, request_bytes("GET", "/body", b"", authorized, keep_alive=False)),
                (413, request_bytes("POST", "/body", b'{"text":"' + b"a" * 1_100_000 + b'"}', authorized, keep_alive=False)),
                (414, request_bytes("GET", "/" + "a" * 5000, b"", authorized, keep_alive=False)),
                (415, request_bytes("POST", "/body", b"{}", {**authorized, "Content-Type": "text/plain"}, keep_alive=False)),
            ]
            for expected, raw in requests:
                with connect(server.port) as sock:
                    try:
                        sock.sendall(raw)
                    except OSError:
                        pass
                    answers, _, _, _ = read_answers(sock, quiet_seconds=2.0)
                got = (answers[0][0], answers[0][1].get("reason")) if answers else None
                report.check(got == (expected, REASON_PHRASES[expected]),
                             f"reason-phrases: {expected} is sent as \"{expected} {REASON_PHRASES[expected]}\" (got {got})")
        finally:
            server.stop()
    finally:
        os.unlink(path)
