"""The suite's one HTTP client: raw requests on 127.0.0.1, one response parser
(`parse_response`), read one answer (`read_response`) or every answer until
the server closes or goes quiet (`read_answers`). Standard library only.
"""

import json
import select
import socket
import time


HOST = "127.0.0.1"


def read_response(sock, deadline, received=b""):
    """One response on `sock`, read with `parse_response` after the bytes
    already `received` of it: (status, headers, body). Raises ConnectionError
    when the server closes before the response is whole, socket.timeout when
    `deadline` passes first."""
    buffer = bytearray(received)
    at_end = False
    while True:
        parsed = parse_response(buffer, False, at_end)
        if parsed is not None:
            _, status, headers, body = parsed
            return status, headers, body
        if at_end:
            raise ConnectionError("closed before a complete response" if buffer else "closed without a response")
        sock.settimeout(max(0.05, deadline - time.monotonic()))
        chunk = sock.recv(65536)
        at_end = not chunk
        buffer += chunk


def request_bytes(method, path, body=b"", headers=None, keep_alive=True):
    lines = [f"{method} {path} HTTP/1.1", f"Host: {HOST}"]
    all_headers = {"Content-Type": "application/json"} if body else {}
    all_headers.update(headers or {})
    if body or method == "POST":
        all_headers.setdefault("Content-Length", str(len(body)))
    if not keep_alive:
        all_headers["Connection"] = "close"
    lines += [f"{name}: {value}" for name, value in all_headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body


def connect(port, timeout=5.0):
    sock = socket.create_connection((HOST, port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def one_request(port, method, path, body=b"", headers=None, timeout=10.0):
    """A request on a fresh connection; (status, headers, body)."""
    with connect(port, timeout) as sock:
        sock.sendall(request_bytes(method, path, body, headers, keep_alive=False))
        return read_response(sock, time.monotonic() + timeout)


# What a desynchronised server answers as a second request of its own (the
# service answers it 404; the nginx set-up of docs/adr/0016 too).
SMUGGLED = b"GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n"


def head(request_line, *fields):
    """A request head; `fields` are raw header lines (bytes), each without its CRLF."""
    return request_line + b"\r\nHost: x\r\n" + b"".join(field + b"\r\n" for field in fields) + b"\r\n"


def cl(data):
    return b"Content-Length: %d" % len(data)


POST = b"POST /body HTTP/1.1"


def parse_response(buffer, is_head, at_end):
    """One complete response at the start of `buffer`: (bytes used, status,
    headers, body), or None while it is incomplete."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return None
    lines = bytes(buffer[:end]).decode("latin-1").split("\r\n")
    parts = lines[0].split(" ", 2)
    if len(parts) < 2 or not parts[0].startswith("HTTP/") or not parts[1].isdigit():
        raise ConnectionError("not an HTTP response: " + lines[0][:80])
    status = int(parts[1])
    headers = {"reason": parts[2] if len(parts) > 2 else ""}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    start = end + 4
    if is_head or 100 <= status < 200 or status in (204, 304):
        return start, status, headers, b""
    if "content-length" in headers:
        length = int(headers["content-length"])
        if len(buffer) < start + length:
            return None
        return start + length, status, headers, bytes(buffer[start:start + length])
    if headers.get("transfer-encoding", "").lower() == "chunked":
        body = bytearray()
        position = start
        while True:
            line_end = buffer.find(b"\r\n", position)
            if line_end < 0:
                return None
            size = int(bytes(buffer[position:line_end]).split(b";")[0], 16)
            position = line_end + 2
            if size == 0:
                trailer_end = buffer.find(b"\r\n", position)
                return None if trailer_end < 0 else (trailer_end + 2, status, headers, bytes(body))
            if len(buffer) < position + size + 2:
                return None
            body += buffer[position:position + size]
            position += size + 2
    return (len(buffer), status, headers, bytes(buffer[start:])) if at_end else None


def read_answers(sock, first_is_head=False, quiet_seconds=0.8, limit_seconds=10.0):
    """Every response the server sends until it closes the connection, resets
    it, or stays quiet for `quiet_seconds`: (answers, interim, ending, leftover)
    with answers a list of (status, headers, body), interim the 1xx statuses,
    ending "closed", "reset" or "open", and leftover the bytes that were not a
    complete response."""
    buffer = bytearray()
    answers, interim = [], []
    ending = None
    deadline = time.monotonic() + limit_seconds
    while True:
        while buffer:
            parsed = parse_response(buffer, first_is_head and not answers, ending is not None)
            if parsed is None:
                break
            used, status, headers, body = parsed
            del buffer[:used]
            (interim if 100 <= status < 200 else answers).append(status if status < 200 else (status, headers, body))
        if ending is not None:
            return answers, interim, ending, len(buffer)
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            ending = "open"
            continue
        sock.settimeout(min(quiet_seconds, remaining))
        try:
            chunk = sock.recv(65536)
        except socket.timeout:
            ending = "open"
            continue
        except ConnectionResetError:
            ending = "reset"
            continue
        if chunk:
            buffer += chunk
        else:
            ending = "closed"


def describe_outcome(outcome):
    """"400 close", "200, 200 open", "200, 404, 200 open"... as the ADR's table writes them."""
    answers, interim, ending, leftover = outcome
    words = ", ".join(str(status) + ("" if status < 400 or headers.get("content-type") == "application/problem+json"
                                     else f" ({headers.get('content-type', 'no type')})")
                      for status, headers, _ in answers) or "no answer"
    if interim:
        words = " ".join(str(status) for status in interim) + " then " + words
    words += {"closed": " close", "reset": " reset", "open": " open"}[ending]
    return words + (f" (+{leftover} bytes)" if leftover else "")


def problem_code(answer):
    try:
        return json.loads(answer[2]).get("code")
    except (ValueError, TypeError, AttributeError):
        return None


def exchange(sock, method, path, body=b"", headers=None, timeout=5.0):
    """One request on an open keep-alive connection: (status, headers) or (None, reason)."""
    try:
        sock.sendall(request_bytes(method, path, body, headers))
        status, answer_headers, _ = read_response(sock, time.monotonic() + timeout)
        return status, answer_headers
    except (OSError, ConnectionError) as error:
        return None, str(error)[:60]


def closed_by_peer(sock, wait_seconds=0.0):
    """True once the server has closed (or reset) the connection; False while it is open and silent."""
    readable, _, _ = select.select([sock], [], [], wait_seconds)
    if not readable:
        return False
    try:
        return sock.recv(1, socket.MSG_PEEK) == b""
    except OSError:
        return True
