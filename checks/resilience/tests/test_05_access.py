"""access: --auth-token-file (401/200, probes open) and --metrics-port

Run by resilience.py (--only access).
"""

import json
import os
import subprocess
import tempfile

from client import one_request
from defines import Server, body_request, check_no_marker


NAME = "access"


def run(binary, report, options):
    """--auth-token-file and --metrics-port on the real binary."""
    print("access", flush=True)
    token = "tok-" + os.urandom(12).hex()
    with tempfile.NamedTemporaryFile("w", suffix=".token", delete=False) as file:
        file.write(token + "\n")
        token_path = file.name
    try:
        server = Server(binary, ["--threads", "1", "--auth-token-file", token_path, "--metrics-port", "0"])
        try:
            port = server.port
            metrics_port = server.start_line.get("metricsPort")
            report.check(isinstance(metrics_port, int) and metrics_port != port,
                         f"access: start line names the metrics listener ({server.start_line.get('metricsAddress')})")
            body = body_request(1)
            status, headers, _ = one_request(port, "POST", "/body", body)
            report.check(status == 401 and headers.get("www-authenticate", "").startswith("Bearer"),
                         f"access: no token → 401 with WWW-Authenticate: Bearer (got {status})")
            status, headers, answer = one_request(port, "POST", "/body", body, {"Authorization": "Bearer wrong-" + token})
            code = json.loads(answer or b"{}").get("code")
            report.check(status == 401 and code == "unauthorized" and "invalid_token" in headers.get("www-authenticate", ""),
                         f"access: wrong token → 401 unauthorized, error=invalid_token (got {status} {code})")
            status, _, _ = one_request(port, "POST", "/body", body, {"Authorization": "Bearer " + token})
            report.check(status == 200, f"access: right token → 200 (got {status})")
            status, _, _ = one_request(port, "GET", "/nope")
            report.check(status == 401, f"access: unknown path without token → 401, not 404 (got {status})")
            for path in ("/healthz", "/readyz"):
                status, _, _ = one_request(port, "GET", path)
                report.check(status == 200, f"access: {path} needs no token (got {status})")
            status, _, _ = one_request(port, "GET", "/metrics")
            report.check(status == 401, f"access: /metrics on the main port needs the token (got {status})")
            if isinstance(metrics_port, int):
                status, headers, text = one_request(metrics_port, "GET", "/metrics")
                report.check(status == 200 and b"notification_text" in text,
                             f"access: /metrics on the metrics port without a token → 200 (got {status})")
                report.check(token.encode() not in text, "access: the token is not in the metrics")
                status, _, _ = one_request(metrics_port, "POST", "/body", body, {"Authorization": "Bearer " + token})
                report.check(status == 404, f"access: the metrics port serves nothing else (POST /body → {status})")
            report.check(server.alive(), "access: server still running")
        finally:
            server.stop()
        report.check(token not in server.output_text(), "access: the token never appears in the server's output")
        check_no_marker(report, server, "access")
        with open(token_path, "w"):
            pass
        failed = subprocess.run([binary, "serve", "--port", "0", "--auth-token-file", token_path],
                                capture_output=True, timeout=20)
        report.check(failed.returncode == 64 and b"empty" in failed.stderr,
                     f"access: an empty token file stops the start with 64 (got {failed.returncode})")
    finally:
        os.unlink(token_path)
