#!/usr/bin/env python3
"""Checks the limits openapi.yaml states against a running server: for every
request member with a `minimum`, `maximum` or `maxLength` that a request
example reaches, the example with the member at the limit is answered 200 and
one past it is refused with a problem that names the member. The engine's
constants (the 256-unit cap, the 4,096 maximum, the alert window's day) are
restated in openapi.yaml; this is what keeps the two from drifting apart.

usage: check-openapi-bounds.py BASE_URL [openapi.yaml]
Prints 'N passed, N failed' and exits non-zero on any failure.
"""
import copy
import json
import pathlib
import re
import sys
import urllib.error
import urllib.request

import yaml
from openapi_refs import resolver

base_url = sys.argv[1].rstrip("/")
spec = yaml.safe_load(open(sys.argv[2] if len(sys.argv) > 2 else "openapi.yaml", "rb"))


resolve = resolver(spec)


def properties(schema):
    """The members an object schema names, through $ref, allOf and the object of a oneOf or anyOf."""
    schema = resolve(schema)
    found = dict(schema.get("properties", {}))
    for part in schema.get("allOf", []) + schema.get("oneOf", []) + schema.get("anyOf", []):
        found.update(properties(part))
    return found


def limits(value, schema, path):
    """Yields (path, member schema) for each bounded member under `value`."""
    if isinstance(value, dict):
        for name, member in properties(schema).items():
            member = resolve(member)
            yield from bounded(path + [name], member)
            if name in value:
                yield from limits(value[name], member, path + [name])
    elif isinstance(value, list) and "items" in resolve(schema):
        for index, item in enumerate(value):
            yield from limits(item, resolve(schema)["items"], path + [index])


def bounded(path, member):
    types = member.get("type")
    types = types if isinstance(types, list) else [types]
    if "integer" in types and ("minimum" in member or "maximum" in member):
        yield path, member
    elif "string" in types and "maxLength" in member and not {"enum", "pattern", "format"} & member.keys():
        yield path, member


def with_member(example, path, value):
    request = copy.deepcopy(example)
    node = request
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value
    return request


def post(path, body):
    data = json.dumps(body, ensure_ascii=False).encode("utf-8")
    req = urllib.request.Request(base_url + path, data=data, method="POST", headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def container(example, path):
    node = example
    for key in path[:-1]:
        node = node[key]
    return node


passed, failures, probed, unreached, labels = 0, [], set(), set(), []
for route, item in spec["paths"].items():
    operation = item.get("post")
    if not operation:
        continue
    media = operation["requestBody"]["content"]["application/json"]
    for name, example in media.get("examples", {}).items():
        for path, member in limits(example["value"], media["schema"], []):
            # One probe per member of the schema (not per array element or per example).
            where = tuple(key for key in path if not isinstance(key, int))
            if (route, where) in probed:
                continue
            probed.add((route, where))
            label = f"POST {route} {'.'.join(map(str, where))}"
            labels.append(label)
            if member.get("type") == "string" or "string" in member.get("type", []):
                inside, outside = "a" * member["maxLength"], "a" * (member["maxLength"] + 1)
                cases = [(inside, outside, f"maxLength {member['maxLength']}")]
            else:
                cases = [(member[key], member[key] + step, f"{key} {member[key]}")
                         for key, step in (("minimum", -1), ("maximum", 1)) if key in member]
            for inside, outside, limit in cases:
                status, body = post(route, with_member(example["value"], path, inside))
                if status == 400 and json.loads(body).get("code") == "unknown-member" and path[-1] not in container(
                        example["value"], path):
                    # A member this example's kind of request does not take (a relay op's own members).
                    unreached.add(label)
                    break
                if status == 200:
                    passed += 1
                else:
                    failures.append(f"{label} at its {limit}: status {status}: {body[:200]!r}")
                status, body = post(route, with_member(example["value"], path, outside))
                named = str(where[-1]) in body.decode("utf-8", "replace")
                if 400 <= status < 500 and named:
                    passed += 1
                else:
                    failures.append(f"{label} past its {limit}: status {status}: {body[:200]!r}")

# The playground restates the body cap's limits: its field, its default and its hint.
cap = resolve(spec["components"]["schemas"]["BodyRequest"])["properties"]["maxUnits"]
resources = pathlib.Path(__file__).resolve().parent.parent / "Sources/NotificationService/Resources"
page, script = (resources / "index.html").read_text(), (resources / "playground.js").read_text()
for label, found, expected in [
    ("playground field min/max/placeholder",
     re.search(r'id="max-units"[^>]*min="(\d+)" max="(\d+)"[^>]*placeholder="(\d+)"', page),
     (cap["minimum"], cap["maximum"], cap["default"])),
    ("playground DEFAULT_MAX_UNITS", re.search(r"DEFAULT_MAX_UNITS = (\d+);", script), (cap["default"],)),
    ("playground hint", re.search(r"an integer in (\d+)…(\d+)", script), (cap["minimum"], cap["maximum"])),
]:
    if found and tuple(map(int, found.groups())) == expected:
        passed += 1
    else:
        failures.append(f"{label}: {found.groups() if found else 'not found'}, openapi.yaml says {expected}")

print("probed:", ", ".join(label for label in labels if label not in unreached))
for failure in failures:
    print("FAIL", failure)
print(f"openapi limits: {len(probed) - len(unreached)} members probed ({len(unreached)} that no example's kind of"
      f" request takes), {passed} passed, {len(failures)} failed")
sys.exit(1 if failures or not probed else 0)
