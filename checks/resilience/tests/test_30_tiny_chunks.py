"""tiny-chunks: chunked uploads in 1-byte chunks, each ending where a read ends (`\\r\\n1\\r\\na`, so
libevent moves the read's whole buffer, 1 KiB or more, into the body), in a 128 MiB pod: the memory
charge (`notification_text_memory_charged_bytes`) covers what they make the process hold, resident
memory stays under 128 MiB, a normal client is never refused, /healthz answers within 1 s; a body
of more than 1,024 chunks gets 400 bad-framing.

Run by resilience.py (--only tiny-chunks).
"""

import threading
import time
import urllib.request

from client import connect, read_response, one_request, problem_code
from defines import Server, MIB, NormalTraffic, RSSSampler, jemalloc_env


NAME = "tiny-chunks"

HEAD = (b"POST /body HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        b"Transfer-Encoding: chunked\r\n\r\n")
MAX_CHUNKS = 1024


def charged_bytes(port):
    text = urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read().decode()
    for line in text.splitlines():
        if line.startswith("notification_text_memory_charged_bytes "):
            return int(line.split()[1])
    return None


def trickle(port, clients, seconds, sampler):
    """`clients` connections each send 1-byte chunks, one send each, a round every millisecond (so
    each lands in a read of its own), for `seconds`; a connection the server closes or refuses is
    replaced by a new one. Returns the open sockets and how many the server ended."""
    def opened():
        sock = connect(port)
        sock.sendall(HEAD + b"1\r\n{")
        sock.setblocking(False)
        return sock

    sockets = [opened() for _ in range(clients)]
    ended = 0
    end = time.monotonic() + seconds
    while time.monotonic() < end and not sampler.exceeded.is_set():
        for index, sock in enumerate(sockets):
            try:
                if not sock.recv(4096):
                    raise ConnectionError("closed")
                # An answer (its 400 past 1,024 chunks, or a 503): the upload is over.
            except BlockingIOError:
                try:
                    sock.send(b"\r\n1\r\na")
                    continue
                except BlockingIOError:
                    continue
                except OSError:
                    pass
            except OSError:
                pass
            sock.close()
            ended += 1
            try:
                sockets[index] = opened()
            except OSError:
                pass
        time.sleep(0.001)
    return sockets, ended


def probe_healthz(port, stop, slow):
    while not stop.is_set():
        started = time.monotonic()
        try:
            status, _, _ = one_request(port, "GET", "/healthz", timeout=2.0)
            if status != 200 or time.monotonic() - started > 1.0:
                slow.append(status)
        except (OSError, ConnectionError) as error:
            slow.append(str(error)[:40])
        stop.wait(0.1)


def sample_charges(port, stop, charges):
    """The memory charge every quarter second until `stop`."""
    while not stop.is_set():
        try:
            charged = charged_bytes(port)
        except OSError:  # a scrape refused or slow at capacity: the next one counts
            charged = None
        if charged is not None:
            charges.append(charged)
        stop.wait(0.25)


def run(binary, report, options):
    print("tiny-chunks", flush=True)
    limit_bytes = 128 * MIB
    # As measured before the charge counted them: 20 uploads, a chunk each a millisecond.
    clients = 20
    seconds = 10.0 if options.quick else 30.0
    server = Server(binary, ["--threads", "1", "--access-log", "off", "--memory-limit-bytes", str(limit_bytes)],
                    env=jemalloc_env())
    sockets = []
    stop = threading.Event()
    try:
        with connect(server.port, timeout=10.0) as sock:
            sock.sendall(HEAD + b"1\r\na\r\n" * (MAX_CHUNKS + 1) + b"0\r\n\r\n")
            answer = read_response(sock, time.monotonic() + 10)
        report.check(answer[0] == 400 and problem_code(answer) == "bad-framing",
                     f"tiny-chunks: a body of {MAX_CHUNKS + 1} chunks gets 400 bad-framing "
                     f"(got {answer[0]} {problem_code(answer)})")

        rss_before = server.rss_kib()
        sampler = RSSSampler(server, cutoff_kib=192 * 1024)
        normal = NormalTraffic(server.port)
        slow_probes = []
        prober = threading.Thread(target=probe_healthz, args=(server.port, stop, slow_probes), daemon=True)
        prober.start()
        # The charge is what the connections hold now; resident memory keeps
        # what the allocator got: compare the rise with the most ever charged.
        charges = []
        charge_sampler = threading.Thread(target=sample_charges, args=(server.port, stop, charges), daemon=True)
        charge_sampler.start()
        started = time.monotonic()
        sockets, closed = trickle(server.port, clients, seconds, sampler)
        report.figure(NAME, "trickle_seconds", round(time.monotonic() - started, 1))
        rise_bytes = (server.rss_kib() - rss_before) * 1024
        stop.set()
        charge_sampler.join(10)
        charged = max(charges, default=None)
        prober.join(10)
        normal.stop()
        peak_kib = sampler.stop()
        report.figure(NAME, "uploads_ended_by_server", closed)
        report.figure(NAME, "rss_rise_mib_charged_mib", [round(rise_bytes / MIB, 1), charged and round(charged / MIB, 1)])
        report.figure(NAME, "rss_mib_peak", round(peak_kib / 1024, 1))
        report.figure(NAME, "normal_ok_failed", [normal.ok, len(normal.failed)])
        # 4 MiB of slack: the allocator's own share of the rise, and the normal client's.
        report.check(charged is not None and charged >= 0.75 * rise_bytes - 4 * MIB,
                     f"tiny-chunks: the memory charge covers what {clients} uploads in 1-byte chunks hold "
                     f"(most charged {charged and round(charged / MIB, 1)} MiB, resident memory rose "
                     f"{round(rise_bytes / MIB, 1)} MiB)")
        report.check(peak_kib < limit_bytes // 1024,
                     f"tiny-chunks: resident memory peak {round(peak_kib / 1024, 1)} MiB under {clients} uploads "
                     f"in 1-byte chunks (< 128 MiB)")
        report.check(not normal.failed and normal.ok >= 20 and not slow_probes,
                     f"tiny-chunks: a normal client never refused ({normal.ok} ok, failed {normal.failed[:2]}), "
                     f"/healthz 200 within 1 s (misses {slow_probes[:2]})")
    finally:
        stop.set()
        for sock in sockets:
            try:
                sock.close()
            except OSError:
                pass
        server.stop()
