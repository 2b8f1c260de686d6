"""framing: each request-framing case of docs/adr/0016 followed by a pipelined request: its target
answer, never a second parse

Run by resilience.py (--only framing).
"""

import socket
import threading

from client import HOST, one_request, SMUGGLED, head, cl, POST, read_answers, describe_outcome
from defines import Server, body_request


# Every framing case is followed by this request on the same connection; a
# server that reads the case's bytes the way its sender meant answers it once.
FOLLOW = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n"


JSON_BODY = b'{"text":"x"}'


def chunked(data):
    return b"%x\r\n" % len(data) + data + b"\r\n0\r\n\r\n"


# Target answers. ("reject", statuses): exactly one answer, one of `statuses`,
# application/problem+json, `Connection: close`, then the connection closed
# (no reset, no answer to anything after it). ("serve", status): the case
# answered `status`, the following request answered 200, the connection open.
# ("one", status): one answer, `status`, then the connection closed.
REJECT = ("reject", (400, 501))


REJECT_SIZE = ("reject", (400, 413))


SERVE = ("serve", 200)


SERVE_405 = ("serve", 405)


ONE = ("one", 200)


TE_CHUNKED = b"Transfer-Encoding: chunked"


def framing_cases():
    """(name, raw bytes sent before FOLLOW, True when the first request is a HEAD, acceptable targets)."""
    return [
        ("content-length", head(POST, cl(JSON_BODY)) + JSON_BODY, False, (SERVE,)),
        ("chunked", head(POST, TE_CHUNKED) + chunked(JSON_BODY), False, (SERVE,)),
        ("chunked-with-trailer", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n0\r\nX-Trailer: v\r\n\r\n", False, (SERVE,)),
        ("transfer-encoding-uppercase", head(POST, b"Transfer-Encoding: CHUNKED") + chunked(JSON_BODY), False, (SERVE,)),
        ("content-length-leading-zeros", head(POST, b"Content-Length: 0012") + JSON_BODY, False, (SERVE,)),
        ("content-length-trailing-space", head(POST, b"Content-Length: 12 ") + JSON_BODY, False, (SERVE,)),
        ("http10-keep-alive", head(b"POST /body HTTP/1.0", b"Connection: keep-alive", cl(JSON_BODY)) + JSON_BODY, False, (SERVE,)),
        ("http10-no-keep-alive", head(b"POST /body HTTP/1.0", cl(JSON_BODY)) + JSON_BODY, False, (ONE,)),
        ("connection-close", head(POST, b"Connection: close", cl(JSON_BODY)) + JSON_BODY, False, (ONE,)),
        ("bare-lf-line-ends", b"POST /body HTTP/1.1\nHost: x\nContent-Length: 12\n\n" + JSON_BODY, False, (SERVE, REJECT)),
        ("chunk-extension", head(POST, TE_CHUNKED) + b"c;name=value\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (SERVE, REJECT)),
        ("content-length-twice-same", head(POST, cl(JSON_BODY), cl(JSON_BODY)) + JSON_BODY, False, (REJECT,)),
        ("content-length-list-same", head(POST, b"Content-Length: 12, 12") + JSON_BODY, False, (REJECT,)),
        ("content-length-twice-0-then-n", head(POST, b"Content-Length: 0", cl(SMUGGLED)) + SMUGGLED, False, (REJECT,)),
        ("content-length-twice-n-then-0", head(POST, cl(SMUGGLED), b"Content-Length: 0") + SMUGGLED, False, (REJECT,)),
        ("content-length-and-chunked", head(POST, cl(b"0\r\n\r\n" + SMUGGLED), TE_CHUNKED) + b"0\r\n\r\n" + SMUGGLED, False, (REJECT,)),
        ("chunked-and-content-length", head(POST, TE_CHUNKED, cl(b"0\r\n\r\n" + SMUGGLED)) + b"0\r\n\r\n" + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-xchunked", head(POST, b"Transfer-Encoding: xchunked") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-chunked-identity", head(POST, b"Transfer-Encoding: chunked, identity") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-identity", head(POST, b"Transfer-Encoding: identity") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-gzip-chunked", head(POST, b"Transfer-Encoding: gzip, chunked") + chunked(SMUGGLED), False, (REJECT,)),
        ("transfer-encoding-empty", head(POST, b"Transfer-Encoding:", cl(JSON_BODY)) + JSON_BODY, False, (REJECT,)),
        ("transfer-encoding-twice", head(POST, TE_CHUNKED, TE_CHUNKED) + chunked(JSON_BODY), False, (REJECT,)),
        ("transfer-encoding-identity-then-chunked", head(POST, b"Transfer-Encoding: identity", TE_CHUNKED) + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-obs-fold", head(POST, b"Transfer-Encoding:", b" chunked") + SMUGGLED, False, (REJECT,)),
        ("transfer-encoding-tab-before-value", head(POST, b"Transfer-Encoding:\tchunked") + chunked(JSON_BODY), False, (SERVE, REJECT)),
        ("transfer-encoding-http10", head(b"POST /body HTTP/1.0", b"Connection: keep-alive", TE_CHUNKED) + chunked(JSON_BODY), False, (REJECT,)),
        ("space-before-colon-content-length", head(POST, b"Content-Length : %d" % len(SMUGGLED)) + SMUGGLED, False, (REJECT,)),
        ("space-before-colon-transfer-encoding", head(POST, b"Transfer-Encoding : chunked") + SMUGGLED, False, (REJECT,)),
        ("head-with-content-length-body", head(b"HEAD /healthz HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, True, (REJECT,)),
        ("get-with-content-length-body", head(b"GET /healthz HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE)),
        ("get-with-chunked-body", head(b"GET /healthz HTTP/1.1", TE_CHUNKED) + chunked(SMUGGLED), False, (REJECT, SERVE)),
        ("delete-with-content-length-body", head(b"DELETE /body HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE_405)),
        ("options-with-content-length-body", head(b"OPTIONS /body HTTP/1.1", cl(SMUGGLED)) + SMUGGLED, False, (REJECT, SERVE_405)),
        ("content-length-negative", head(POST, b"Content-Length: -1") + JSON_BODY, False, (REJECT,)),
        ("content-length-plus-sign", head(POST, b"Content-Length: +12") + JSON_BODY, False, (REJECT,)),
        ("content-length-huge", head(POST, b"Content-Length: 99999999999999999999") + JSON_BODY, False, (REJECT_SIZE,)),
        ("content-length-not-a-number", head(POST, b"Content-Length: 12abc") + JSON_BODY, False, (REJECT,)),
        ("content-length-empty", head(POST, b"Content-Length:") + JSON_BODY, False, (REJECT,)),
        ("chunk-size-overflow", head(POST, TE_CHUNKED) + b"10000000000000000c\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT_SIZE,)),
        ("chunk-size-0x-prefix", head(POST, TE_CHUNKED) + b"0xc\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunk-size-negative", head(POST, TE_CHUNKED) + b"-c\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunk-size-space-garbage", head(POST, TE_CHUNKED) + b"c garbage\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT, SERVE)),
        ("chunk-extension-invalid", head(POST, TE_CHUNKED) + b"c;\x01\r\n" + JSON_BODY + b"\r\n0\r\n\r\n", False, (REJECT, SERVE)),
        ("chunk-data-without-crlf", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"0\r\n\r\n", False, (REJECT,)),
        ("chunk-extra-blank-line", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n\r\n0\r\n\r\n", False, (REJECT,)),
        ("chunked-without-last-chunk", head(POST, TE_CHUNKED) + b"c\r\n" + JSON_BODY + b"\r\n" + SMUGGLED, False, (REJECT,)),
    ]


def framing_outcome(port, raw, first_is_head, host=HOST):
    """Sends a case and FOLLOW on one connection: (answers, interim, ending, leftover)."""
    with socket.create_connection((host, port), timeout=5.0) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        try:
            sock.sendall(raw + FOLLOW)
        except (BrokenPipeError, ConnectionResetError):
            pass
        return read_answers(sock, first_is_head)


def meets_target(outcome, target):
    answers, interim, ending, leftover = outcome
    kind, statuses = target
    if leftover or interim:
        return False
    if kind == "reject":
        if len(answers) != 1 or ending != "closed":
            return False
        status, headers, _ = answers[0]
        return (status in statuses and headers.get("content-type") == "application/problem+json"
                and headers.get("connection", "").lower() == "close")
    if kind == "serve":
        return ending == "open" and [status for status, _, _ in answers] == [statuses, 200]
    return ending == "closed" and [status for status, _, _ in answers] == [statuses]


def describe_target(targets):
    words = []
    for kind, statuses in targets:
        if kind == "reject":
            words.append(" or ".join(map(str, statuses)) + " problem close")
        elif kind == "serve":
            words.append(f"{statuses}, 200 open")
        else:
            words.append(f"{statuses} close")
    return " / ".join(words)


def print_framing_table(address):
    """Prints each case's answer from any HTTP server at HOST:PORT (for the ADR's nginx column)."""
    host, _, port = address.rpartition(":")
    for name, raw, first_is_head, targets in framing_cases():
        try:
            described = describe_outcome(framing_outcome(int(port), raw, first_is_head, host))
        except (OSError, ConnectionError) as error:
            described = f"error {error}"
        print(f"{name}\t{described}\t{describe_target(targets)}", flush=True)


NAME = "framing"


def run(binary, report, options):
    """Each request-framing case of docs/adr/0016 gets its target answer, and never a second parse."""
    print("framing", flush=True)
    cases = framing_cases()
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        outcomes = {}
        lock = threading.Lock()
        queue = iter(cases)

        def worker():
            for name, raw, first_is_head, _ in queue:
                try:
                    outcome = framing_outcome(server.port, raw, first_is_head)
                except (OSError, ConnectionError) as error:
                    outcome = ([], [], f"error {error}", 0)
                with lock:
                    outcomes[name] = outcome

        threads = [threading.Thread(target=worker) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(60)
        failed = []
        for name, _, _, targets in cases:
            outcome = outcomes.get(name, ([], [], "open", 0))
            good = outcome[2] in ("closed", "reset", "open") and any(meets_target(outcome, target) for target in targets)
            described = describe_outcome(outcome) if outcome[2] in ("closed", "reset", "open") else outcome[2]
            report.check(good, f"framing {name}: {described} (target {describe_target(targets)})")
            if not good:
                failed.append(name)
        report.figure("framing", "cases", len(cases))
        report.figure("framing", "off_target", len(failed))
        status, _, _ = one_request(server.port, "POST", "/body", body_request(1))
        report.check(server.alive() and status == 200, "framing: server still serves afterwards")
    finally:
        server.stop()
