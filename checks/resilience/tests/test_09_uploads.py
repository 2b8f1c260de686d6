"""uploads: 60 unauthenticated 1 MB uploads at once: RSS rise < 24 MiB; 401/413 when the head arrives,
no 100 Continue, the whole answer read

Run by resilience.py (--only uploads).
"""

import os
import select
import socket
import threading
import time

from client import request_bytes, connect, one_request, read_answers, problem_code, closed_by_peer
from defines import MARKER, Server, body_request, check_no_marker, RSSSampler, NormalTraffic, token_file


def upload(port, length, headers, send_body=True, timeout=10.0):
    """A POST /body declaring `length` bytes; sends them all unless `send_body`
    is false, then reads what comes back: (interim statuses, final answer or
    None, ending) where ending is "closed", "reset" or "open"."""
    head_bytes = request_bytes("POST", "/body", b"", {"Content-Length": str(length), **headers})
    with connect(port, timeout) as sock:
        sock.sendall(head_bytes)
        if send_body:
            chunk = (b'{"text":"' + MARKER.encode() + b" " * 65536)[:65536]
            remaining = length
            try:
                while remaining > 0:
                    sock.sendall(chunk[:min(remaining, len(chunk))])
                    remaining -= min(remaining, len(chunk))
            except (BrokenPipeError, ConnectionResetError):
                pass
        answers, interim, ending, _ = read_answers(sock, quiet_seconds=2.0 if send_body else 1.5, limit_seconds=timeout)
        return interim, answers[0] if answers else None, ending


def scenario_lingering_bound(binary, report, token_path):
    """After an early refusal the server discards what still arrives only for a
    bounded time: a client that goes silent, or keeps sending, is closed."""
    read_timeout = 2.0
    bound = 10.0
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--auth-token-file", token_path,
                             "--read-timeout-seconds", str(read_timeout)])
    try:
        for behaviour in ("silent", "trickling"):
            with connect(server.port) as sock:
                sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "1000000"}))
                answers, _, ending, _ = read_answers(sock, quiet_seconds=1.5, limit_seconds=1.5)
                answered_at = time.monotonic()
                closed_after = None
                if answers and ending == "open":
                    while time.monotonic() < answered_at + bound:
                        if behaviour == "trickling":
                            try:
                                sock.sendall(b" " * 4096)
                            except OSError:
                                closed_after = time.monotonic() - answered_at
                                break
                        if closed_by_peer(sock, 0.1):
                            closed_after = time.monotonic() - answered_at
                            break
                elif answers:
                    closed_after = 0.0
                got = f"{answers[0][0]}, closed after {closed_after:.1f} s" if answers and closed_after is not None else (
                    f"{answers[0][0]}, still open after {bound:g} s" if answers else f"no answer, {ending}")
                report.check(bool(answers) and answers[0][0] == 401 and closed_after is not None,
                             f"uploads: a {behaviour} client refused at the head is closed within {bound:g} s of its 401 "
                             f"(--read-timeout-seconds {read_timeout:g}; got {got})")
    finally:
        server.stop()


NAME = "uploads"


def run(binary, report, options):
    """Bodies without a token, or over the limit, are refused when the head
    arrives: no 100 Continue, no body buffered, and the whole refusal still reaches the client."""
    print("uploads", flush=True)
    token = "tok-" + os.urandom(12).hex()
    path = token_file(token)
    authorized = {"Authorization": "Bearer " + token}
    uploads = 60
    try:
        server = Server(binary, ["--threads", "2", "--access-log", "off", "--auth-token-file", path])
        try:
            one_request(server.port, "POST", "/body", body_request(1), authorized)
            baseline_kib = server.rss_kib()
            sampler = RSSSampler(server)
            normal = NormalTraffic(server.port, authorized)
            results = []
            lock = threading.Lock()
            # Every upload stops one byte short until all have got that far,
            # so the server holds all of them at once if it buffers bodies.
            barrier = threading.Barrier(uploads)
            body = (b'{"text":"' + MARKER.encode() + b" " * 1_000_000)[:999_999]

            def uploader():
                try:
                    with connect(server.port, 5.0) as sock:
                        try:
                            sock.sendall(request_bytes("POST", "/body", b"", {"Content-Length": "1000000"}) + body)
                        except (socket.timeout, BrokenPipeError, ConnectionResetError):
                            pass  # a server that refused at the head and stopped reading
                        try:
                            barrier.wait(15)
                        except threading.BrokenBarrierError:
                            pass
                        time.sleep(1.0)  # for the server to read what the kernel holds
                        # Like curl: the last byte only if no answer has started arriving.
                        readable, _, _ = select.select([sock], [], [], 0)
                        if not readable:
                            try:
                                sock.sendall(b"}")
                            except OSError:
                                pass
                        answers, interim, ending, _ = read_answers(sock, quiet_seconds=2.0)
                        outcome = (interim, answers[0] if answers else None, ending)
                except (OSError, ConnectionError) as error:
                    outcome = ([], None, f"error {error}"[:60])
                with lock:
                    results.append(outcome)

            threads = [threading.Thread(target=uploader) for _ in range(uploads)]
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join(60)
            normal.stop()
            peak_kib = sampler.stop()
            whole = sum(1 for interim, answer, ending in results
                        if not interim and answer and answer[0] == 401 and problem_code(answer) == "unauthorized"
                        and answer[1].get("connection", "").lower() == "close" and ending != "reset")
            summary = {}
            for interim, answer, ending in results:
                label = (" ".join(map(str, interim)) + " " if interim else "") + (str(answer[0]) if answer else "none") + " " + ending
                summary[label] = summary.get(label, 0) + 1
            rise_mib = (peak_kib - baseline_kib) / 1024
            report.figure("uploads", "rss_mib_baseline_peak", [round(baseline_kib / 1024, 1), round(peak_kib / 1024, 1)])
            report.figure("uploads", "unauthenticated_1mb_upload_outcomes", summary)
            report.check(rise_mib < 24, f"uploads: {uploads} unauthenticated 1 MB uploads raise resident memory "
                                        f"{rise_mib:.1f} MiB (< 24 MiB)")
            report.check(whole == uploads, f"uploads: {whole} of {uploads} unauthenticated uploads read a complete "
                                           "401 unauthorized with Connection: close (no reset, no 100 Continue)")
            report.check(normal.ok >= 10 and not normal.failed,
                         f"uploads: a client with the token is served meanwhile (ok {normal.ok}, failed {len(normal.failed)})")

            cases = [
                ("no token, head only", 1_000_000, {}, False, 401, "unauthorized"),
                ("no token, Expect: 100-continue", 1_000_000, {"Expect": "100-continue"}, False, 401, "unauthorized"),
                ("token, 1.5 MB declared, head only", 1_500_000, authorized, False, 413, "payload-too-large"),
                ("token, 1.5 MB, Expect: 100-continue", 1_500_000, {**authorized, "Expect": "100-continue"}, False, 413,
                 "payload-too-large"),
                ("token, 1.5 MB sent", 1_500_000, authorized, True, 413, "payload-too-large"),
                ("token, 3 MB sent", 3_000_000, authorized, True, 413, "payload-too-large"),
                ("no token, 3 MB sent", 3_000_000, {}, True, (401, 413), ("unauthorized", "payload-too-large")),
            ]
            for what, length, headers, send_body, status, code in cases:
                statuses = status if isinstance(status, tuple) else (status,)
                codes = code if isinstance(code, tuple) else (code,)
                try:
                    interim, answer, ending = upload(server.port, length, headers, send_body)
                except (OSError, ConnectionError) as error:
                    interim, answer, ending = [], None, f"error {error}"[:60]
                got = (" ".join(map(str, interim)) + " then " if interim else "") + (
                    f"{answer[0]} {problem_code(answer)}" if answer else "no answer") + f", {ending}"
                good = (not interim and answer is not None and answer[0] in statuses
                        and problem_code(answer) == codes[statuses.index(answer[0])]
                        and answer[1].get("connection", "").lower() == "close" and ending != "reset")
                expected = " or ".join(f"{one} {codes[n]}" for n, one in enumerate(statuses))
                when = "the whole answer read after the body" if send_body else "before any body byte is sent"
                report.check(good, f"uploads: {what} → {expected}, Connection: close, {when} (got {got})")
            status, _, _ = one_request(server.port, "POST", "/body", body_request(2), authorized)
            report.check(server.alive() and status == 200, "uploads: server still serves afterwards")
            check_no_marker(report, server, "uploads")
        finally:
            server.stop()
        scenario_lingering_bound(binary, report, path)
    finally:
        os.unlink(path)
