"""Requests that are not UTF-8, given to both hosts as bytes (Node answers
bytes too), each answer the live service's bytes: a host that decoded them
first would answer 200 where the service refuses."""

import base64
import json
import random

from hosts import NOW, Service, node_answers, python_answers
from random_requests import compose_fixture_requests, invalid_utf8_request


def run_invalid_utf8(args, tally):
    rng = random.Random(args.seed)
    compose_requests = compose_fixture_requests()
    requests = [invalid_utf8_request(rng, compose_requests) for _ in range(args.invalid_utf8)]
    service = Service(args.binary)
    try:
        native = [service.answer_bytes(route, data) for route, data in requests]
    finally:
        service.close()
    calls = [{"route": route, "requestBase64": base64.b64encode(data).decode(),
              **({"now": NOW} if route == "/compose" else {})} for route, data in requests]
    hosts = {"node": node_answers(args.wasm_dir, calls)[0],
             "python": [(status, body.encode()) for status, body in python_answers(
                 [{"route": route, "request": data} for route, data in requests])]}
    codes = {}
    for status, body in native:
        code = json.loads(body).get("code", "200") if status != 200 else "200"
        codes[code] = codes.get(code, 0) + 1
    refused = codes.get("invalid-utf8", 0)
    for host, answers in hosts.items():
        failed = 0
        for index, ((route, data), want, got) in enumerate(zip(requests, native, answers)):
            if want != got:
                failed += 1
                if failed <= 5:
                    print(f"FAIL invalid-utf8 {host} {index} {route}\n  request {data[:200]!r}\n"
                          f"  service {want[0]} {want[1][:200]!r}\n  module  {got[0]} {got[1][:200]!r}")
        tally.add(len(requests) - failed, failed)
        given = "bytes in and out" if host == "node" else "bytes in"
        print(f"invalid UTF-8 through the {host} host, {given}: {len(requests) - failed} of {len(requests)} "
              f"answers the service's bytes")
    # The requests must mostly be refused for their bytes, or they test nothing.
    enough = refused >= len(requests) * 0.8
    tally.add(int(enough), int(not enough))
    print(f"{'' if enough else 'FAIL '}invalid UTF-8: the service answered "
          + ", ".join(f"{code} {count}" for code, count in sorted(codes.items()))
          + f" ({refused} invalid-utf8, at least 80% wanted)")
