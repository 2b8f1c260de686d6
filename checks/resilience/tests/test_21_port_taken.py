"""port-taken: A second instance on a port another process holds exits 69 and says why, instead of
binding beside it with SO_REUSEPORT.

Run by resilience.py (--only port-taken).
"""

import subprocess

from client import HOST, one_request
from defines import Server


NAME = "port-taken"


def run(binary, report, options):
    """A second instance on a port another process holds exits 69 and says
    why, instead of binding beside it with SO_REUSEPORT."""
    print("port-taken", flush=True)
    server = Server(binary, ["--threads", "2", "--access-log", "off"])
    try:
        second = subprocess.Popen([binary, "serve", "--host", HOST, "--port", str(server.port), "--threads", "2"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            _, stderr = second.communicate(timeout=5)
            outcome = f"{second.returncode}: {stderr.strip()[-120:]!r}"
        except subprocess.TimeoutExpired:
            second.kill()
            _, stderr = second.communicate()
            outcome = "still serving beside the first after 5 s"
        report.figure("port-taken", "second_instance", outcome)
        report.check(second.returncode == 69 and "Address already in use" in stderr,
                     f"port-taken: a second serve on a held port exits 69 with the reason (got {outcome})")
        statuses = [one_request(server.port, "GET", "/healthz")[0] for _ in range(20)]
        report.check(all(status == 200 for status in statuses),
                     f"port-taken: the first instance answers every request ({statuses.count(200)} of 20)")
    finally:
        server.stop()
