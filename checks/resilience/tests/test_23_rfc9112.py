"""rfc9112: The head rules of RFC 9112 that a proxy would catch: Host exactly once, `close` anywhere in
Connection, empty lines before the request line, chunk sizes with leading zeros.

Run by resilience.py (--only rfc9112).
"""

from client import connect, read_answers
from defines import Server


def rfc9112_cases():
    """(name, raw request, expected status, expected ending) for the head
    rules of RFC 9112 a proxy in front would enforce."""
    body = b'{"text":"hi"}'
    post = b"POST /body HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\n"
    return [
        ("no Host in HTTP/1.1 (3.2)", b"GET /healthz HTTP/1.1\r\n\r\n", 400, "closed"),
        ("two Host fields (3.2)", b"GET /healthz HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n", 400, "closed"),
        ("no Host in HTTP/1.0", b"GET /healthz HTTP/1.0\r\n\r\n", 200, "closed"),
        ("Connection: close, keep-alive (9.6)",
         b"GET /healthz HTTP/1.1\r\nHost: a\r\nConnection: close, keep-alive\r\n\r\n", 200, "closed"),
        ("HTTP/1.0, Connection: keep-alive, close",
         b"GET /healthz HTTP/1.0\r\nConnection: keep-alive, close\r\n\r\n", 200, "closed"),
        ("HTTP/1.0, Connection: keep-alive", b"GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", 200, "open"),
        ("an empty line before the request line (2.2)", b"\r\nGET /healthz HTTP/1.1\r\nHost: a\r\n\r\n", 200, "open"),
        ("empty lines before a POST with a body",
         b"\r\n\r\n" + post + b"Content-Length: 13\r\n\r\n" + body, 200, "open"),
        ("a chunk size with leading zeros (7.1)",
         post + b"Transfer-Encoding: chunked\r\n\r\n00000000000000000d\r\n" + body + b"\r\n0\r\n\r\n", 200, "open"),
        ("a chunk size of 33 digits", post + b"Transfer-Encoding: chunked\r\n\r\n" + b"0" * 32 + b"d\r\n" + body
         + b"\r\n0\r\n\r\n", 400, "closed"),
    ]


NAME = "rfc9112"


def run(binary, report, options):
    """The head rules of RFC 9112 that a proxy would catch: Host exactly once,
    `close` anywhere in Connection, empty lines before the request line, chunk
    sizes with leading zeros."""
    print("rfc9112", flush=True)
    server = Server(binary, ["--threads", "1", "--access-log", "off"])
    try:
        met = 0
        cases = rfc9112_cases()
        for name, raw, status, ending in cases:
            with connect(server.port) as sock:
                sock.sendall(raw)
                answers, _, got_ending, _ = read_answers(sock, quiet_seconds=0.5, limit_seconds=3.0)
            got = answers[0][0] if answers else None
            ok = got == status and got_ending == ending and len(answers) == 1
            met += ok
            report.check(ok, f"rfc9112: {name}: {status} and {ending} (got {got}, {got_ending}, "
                             f"{len(answers)} answer(s))")
        report.figure("rfc9112", "cases_on_target", f"{met} of {len(cases)}")
    finally:
        server.stop()
