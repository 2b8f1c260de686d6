#!/usr/bin/env python3
"""Checks openapi.yaml against a running server: the document it serves is the
file, every request example gets exactly its documented response example,
and every response validates against its documented schema.

usage: check-openapi-examples.py BASE_URL [openapi.yaml]
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import json
import sys
import urllib.error
import urllib.request

import jsonschema
import yaml
from openapi_refs import resolver

base_url = sys.argv[1].rstrip("/")
spec_path = sys.argv[2] if len(sys.argv) > 2 else "openapi.yaml"
with open(spec_path, "rb") as f:
    spec_bytes = f.read()
spec = yaml.safe_load(spec_bytes)

passed = 0
failures = []


def check(name, condition, message=""):
    global passed
    if condition:
        passed += 1
    else:
        failures.append(f"{name}: {message}")


def request(method, path, body=None, headers=None):
    data = None if body is None else json.dumps(body, ensure_ascii=False).encode("utf-8")
    req = urllib.request.Request(base_url + path, data=data, method=method, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


resolve = resolver(spec)


def validate(name, instance, schema):
    # Resolve $refs against the whole document by validating with it as the root.
    root = dict(spec)
    root.update(schema if "$ref" not in schema else {"$ref": schema["$ref"]})
    try:
        jsonschema.Draft202012Validator(root).validate(instance)
        check(name, True)
    except jsonschema.ValidationError as error:
        check(name, False, f"schema: {error.message}")


# 1. The served document is the file.
status, headers, body = request("GET", "/openapi.yaml")
check("GET /openapi.yaml", status == 200 and body == spec_bytes, f"status {status}, {len(body)} bytes vs {len(spec_bytes)}")

# 2. Request examples give their response examples, which fit their schemas.
for path, item in spec["paths"].items():
    for method, operation in item.items():
        if method == "post":
            media = operation["requestBody"]["content"]["application/json"]
            ok = resolve(operation["responses"]["200"])["content"]["application/json"]
            for name, example in media.get("examples", {}).items():
                label = f"POST {path} example {name}"
                status, headers, body = request("POST", path, example["value"], {"Content-Type": "application/json"})
                check(label + " status", status == 200, f"status {status}: {body[:300]!r}")
                check(label + " content type", headers.get("Content-Type") == "application/json", headers.get("Content-Type"))
                check(label + " request id", bool(headers.get("X-Request-Id")), "no X-Request-Id")
                answer = json.loads(body)
                expected = ok["examples"][name]["value"]
                check(label + " response", answer == expected, f"\n  expected {json.dumps(expected)}\n  actual   {json.dumps(answer)}")
                validate(label + " schema", answer, ok["schema"])
        elif method == "get":
            label = f"GET {path}"
            status, headers, body = request("GET", path)
            check(label + " status", status == 200, f"status {status}")
            content = resolve(operation["responses"]["200"])["content"]
            media_type = next(iter(content))
            check(label + " content type", headers.get("Content-Type") == media_type, headers.get("Content-Type"))
            if media_type == "application/json":
                validate(label + " schema", json.loads(body), content[media_type]["schema"])
            status, head_headers, head_body = request("HEAD", path)
            check("HEAD " + path, status == 200 and head_body == b"" and head_headers.get("Content-Type") == media_type,
                  f"status {status}, {len(head_body)} bytes")

# 3. Errors fit the Problem schema and the documented codes.
for label, method, path, body, headers, code in [
    ("invalid JSON", "POST", "/body", None, {"Content-Type": "application/json"}, "invalid-json"),
    ("wrong media type", "POST", "/body", {"text": "a"}, {"Content-Type": "text/plain"}, "unsupported-media-type"),
    ("unknown path", "GET", "/nope", None, {}, "not-found"),
    ("wrong method", "DELETE", "/compose", None, {}, "method-not-allowed"),
]:
    status, response_headers, response_body = request(method, path, body, headers)
    problem = json.loads(response_body)
    check(label + " content type", response_headers.get("Content-Type") == "application/problem+json", response_headers.get("Content-Type"))
    check(label + " code", problem.get("code") == code, json.dumps(problem))
    validate(label + " schema", problem, {"$ref": "#/components/schemas/Problem"})
    if code == "method-not-allowed":
        check(label + " Allow", response_headers.get("Allow") == "POST", response_headers.get("Allow"))

# 4. Each problem example with an `x-request` (the body it answers, as text or
# as hex for bytes that are not UTF-8) is exactly what the server answers it,
# and the 414 example is the answer to a target one byte over the default limit.
def raw_post(path, data):
    req = urllib.request.Request(base_url + path, data=data, method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


problem_examples = 0
for response_name, response in spec["components"]["responses"].items():
    for media in response.get("content", {}).values():
        for name, example in media.get("examples", {}).items():
            sent = example.get("x-request")
            if sent is None:
                continue
            problem_examples += 1
            label = f"{response_name} example {name}"
            data = bytes.fromhex(sent["bodyHex"]) if "bodyHex" in sent else sent["body"].encode("utf-8")
            status, response_headers, body = raw_post(sent["path"], data)
            expected = example["value"]
            check(label + " status", status == expected["status"], f"status {status}: {body[:300]!r}")
            check(label + " answer", json.loads(body) == expected,
                  f"\n  expected {json.dumps(expected)}\n  actual   {json.dumps(json.loads(body))}")
            validate(label + " schema", json.loads(body), {"$ref": "#/components/schemas/Problem"})
check("problem examples with x-request", problem_examples >= 11, f"{problem_examples} found")

status, _, body = request("GET", "/" + "a" * 4096)
expected = spec["components"]["responses"]["URITooLong"]["content"]["application/problem+json"]["example"]
check("414 example", status == 414 and json.loads(body) == expected, f"status {status}: {body[:300]!r}")

for failure in failures:
    print("FAIL", failure)
print(f"openapi examples: {passed} passed, {len(failures)} failed")
sys.exit(1 if failures else 0)
