"""The service side of the playground checks: the report of checks, `notification-text
serve` on 127.0.0.1, and requests straight to it (not through the browser)."""

import json
import os
import signal
import subprocess
import threading
import urllib.error
import urllib.request


class OutOfTime(Exception):
    pass


class Report:
    def __init__(self):
        self.passed = 0
        self.failures = []

    def check(self, condition, message):
        if condition:
            self.passed += 1
            print(f"ok: {message}", flush=True)
        else:
            self.failures.append(message)
            print(f"FAIL: {message}", flush=True)
        return condition


class Server:
    """`notification-text serve` on 127.0.0.1, any free port, access log kept."""

    def __init__(self, binary, *arguments):
        self.process = subprocess.Popen(
            [binary, "serve", "--host", "127.0.0.1", "--port", "0", "--threads", "1", *arguments],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env={k: v for k, v in os.environ.items()
                                                                 if not k.startswith("NOTIFICATION_TEXT_")})
        line = self.process.stdout.readline().decode()
        if not line.startswith('{"event":"start"'):
            self.process.kill()
            raise RuntimeError(f"no start line from serve: {line!r} {self.process.stderr.read().decode()!r}")
        self.port = json.loads(line)["port"]
        self.base = f"http://127.0.0.1:{self.port}"
        self.log = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.process.stdout:
            try:
                self.log.append(json.loads(line))
            except ValueError:
                pass

    def routes(self):
        """(method, route, status) of every request answered so far."""
        return [(entry.get("method"), entry.get("route"), entry.get("status")) for entry in self.log
                if "route" in entry]

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


def http(base, method, path, body=None, headers=None):
    """(status, headers, body) of one request, straight to the server."""
    request = urllib.request.Request(base + path, data=body, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=5) as response:
            return response.status, response.headers, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read()


def post_json(base, path, text, token=None):
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    status, _, body = http(base, "POST", path, text.encode(), headers)
    return status, json.loads(body)
