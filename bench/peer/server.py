"""The benchmark peer: a straightforward Python `POST /body` on the standard library.

ThreadingHTTPServer with HTTP/1.1 keep-alive, the same request and response
shape as the Swift service, and the same rules (`body_rules.py`). Not part of
the service; it exists so the benchmark can show the cost of an ordinary
implementation next to the Swift one on the same machine.

Usage: server.py [--host 127.0.0.1] [--port 0]
Prints one JSON line on stdout once listening: {"event":"listening","address":"127.0.0.1","port":N}
"""

from __future__ import annotations

import argparse
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import body_rules  # noqa: E402

MAX_BODY_BYTES = 64 * 1024


class BodyHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "peer-python"
    sys_version = ""

    def log_message(self, format, *args):  # noqa: A002 - the base class's name
        pass  # never log user content; the benchmark needs no access log

    def reply(self, status: int, payload: dict, content_type: str = "application/json") -> None:
        data = json.dumps(payload, ensure_ascii=False).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def problem(self, status: int, code: str, detail: str) -> None:
        self.reply(status, {"type": "about:blank", "status": status, "code": code, "detail": detail},
                   "application/problem+json")

    def do_GET(self):  # noqa: N802 - the base class's name
        if self.path == "/healthz":
            self.reply(200, {"status": "ok"})
        else:
            self.problem(404, "not-found", "no such route")

    def do_POST(self):  # noqa: N802
        length = int(self.headers.get("Content-Length") or 0)
        if length > MAX_BODY_BYTES:
            self.close_connection = True
            self.problem(413, "body-too-large", f"request body over {MAX_BODY_BYTES} bytes")
            return
        raw = self.rfile.read(length)
        if self.path != "/body":
            self.problem(404, "not-found", "no such route")
            return
        try:
            request = json.loads(raw)
        except ValueError:
            self.problem(400, "invalid-json", "the request body is not valid JSON")
            return
        if not isinstance(request, dict) or not isinstance(request.get("text"), str):
            self.problem(400, "invalid-field", "text must be a string")
            return
        text = request["text"]
        max_units = request.get("maxUnits", body_rules.DEFAULT_MAX_UNITS)
        if type(max_units) is not int or not body_rules.DEFAULT_MAX_UNITS <= max_units <= body_rules.LARGEST_MAX_UNITS:
            self.problem(400, "invalid-field", "maxUnits must be an integer in 256...4096")
            return
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            self.problem(400, "invalid-text", "text contains a lone surrogate")
            return
        self.reply(200, body_rules.render(text, max_units).as_dict())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args()
    ThreadingHTTPServer.daemon_threads = True
    ThreadingHTTPServer.request_queue_size = 1024
    server = ThreadingHTTPServer((args.host, args.port), BodyHandler)
    host, port = server.server_address[:2]
    print(json.dumps({"event": "listening", "address": host, "port": port}), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


if __name__ == "__main__":
    main()
