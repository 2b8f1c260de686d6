"""Random requests for checks/wasm: fixture requests mutated, hostile
texts, a few cut JSON texts, and requests made ill-formed UTF-8."""

import json

from hosts import FIXTURES, NOW, text


def compose_fixture_requests():
    return [c["request"] for name in ("compose.json", "push.json")
            for c in json.loads((FIXTURES / name).read_text("utf-8"))["cases"]]


PIECES = ["**", "*", "_", "__", "~~", "`", "```", "[", "](", ")", "<", ">", "#", "- ", "1. ", "> ", "\\", "|", "\n",
          "\n\n", "\r\n", " ", "\t", "&amp;", "&#x1F600;", "http://x.example/a_b", "![i](u)", "e\u0301", "\u200d",
          "\U0001F468\u200d\U0001F469\u200d\U0001F467", "\U0001F1EB\U0001F1F7", "\U0001F44D\U0001F3FD", "\u2028",
          "\u00a0", "\u0627\u0644", "\u05e9\u05dc\u05d5\u05dd", "\u4f60\u597d", "\x00", "\x1b", "\x7f", "\ufeff",
          "word", "Hello", "a", "1", "\u2068", "\u202e", "||spoiler||", "@ana", ":smile:"]


def hostile_text(rng, count):
    return "".join(rng.choice(PIECES) if rng.random() < 0.7 else chr(rng.choice(
        [rng.randrange(0x20, 0x7f), rng.randrange(0xa0, 0x3000), rng.randrange(0x1F300, 0x1FAFF)]))
        for _ in range(count))


def random_body(rng):
    roll = rng.random()
    request = {"text": hostile_text(rng, rng.choice([0, 1, 3, 10, 40, 200, 1500, 5000]))}
    if roll < 0.6:
        request["maxUnits"] = rng.choice([256, 257, 300, 512, 1000, 2048, 4095, 4096])
    elif roll < 0.65:
        request["maxUnits"] = rng.choice([0, 255, -1, 4097, 1.5, "300", None, 2 ** 31, 2 ** 53])
    elif roll < 0.7:
        request = rng.choice([{"text": 1}, {}, {"text": "a", "extra": True}, [], {"text": None}])
    line = text(request)
    if rng.random() < 0.02:
        line = line[: rng.randrange(len(line) + 1)]  # cut: invalid JSON
    return line


def mutate(rng, value, depth=0):
    if isinstance(value, dict):
        result = {}
        for key, item in value.items():
            roll = rng.random()
            if roll < 0.03 and key != "now":
                continue
            result[key] = mutate(rng, item, depth + 1) if roll < 0.5 else item
        if rng.random() < 0.02:
            result["unexpected"] = 1
        return result
    if isinstance(value, list):
        items = [mutate(rng, item, depth + 1) for item in value]
        if items and rng.random() < 0.2:
            items += [mutate(rng, rng.choice(items), depth + 1) for _ in range(rng.randrange(1, 6))]
        if items and rng.random() < 0.1:
            rng.shuffle(items)
        return items
    if isinstance(value, str):
        roll = rng.random()
        if roll < 0.25:
            return hostile_text(rng, rng.choice([0, 1, 5, 30, 300]))
        if roll < 0.3:
            return rng.choice([1, None, True, [], {}])
        return value
    if isinstance(value, bool) or value is None:
        return rng.choice([True, False, None, 0]) if rng.random() < 0.1 else value
    if isinstance(value, (int, float)):
        return rng.choice([0, -1, 1, 7, 99_999, 100_000, 2 ** 31, 2 ** 53, 0.5, "1"]) if rng.random() < 0.2 else value
    return value


def random_compose(rng, requests):
    request = mutate(rng, rng.choice(requests))
    if not isinstance(request, dict) or not isinstance(request.get("now"), str):
        request = {"now": NOW, "notifications": []} if not isinstance(request, dict) else request | {"now": NOW}
    return text(request)


# Requests that are not UTF-8: a host given bytes must pass them on as they
# are (a host that decodes them first answers 200 where the service refuses).

BAD_UTF8 = [b"\x80", b"\xbf", b"\xc0\x80", b"\xc1\xbf", b"\xe0\x80\x80", b"\xed\xa0\x80", b"\xed\xbf\xbf",
            b"\xf0\x80\x80\x80", b"\xf4\x90\x80\x80", b"\xf5\x80\x80\x80", b"\xf8\x88\x80\x80\x80", b"\xfe",
            b"\xff", b"\xc3", b"\xe2\x82", b"\xf0\x9f\x98", b"\xe2\x28\xa1", b"\xc3\x28"]


def invalid_utf8_request(rng, compose_requests):
    """A fixture-like request's UTF-8 with one to three ill-formed sequences,
    mostly inside its strings, or a well-formed character cut short."""
    route = rng.choice(["/body", "/body", "/compose"])
    text_value = random_body(rng) if route == "/body" else random_compose(rng, compose_requests)
    data = bytearray(text_value.encode("utf-8", "surrogatepass"))
    quotes = [index for index, byte in enumerate(data) if byte == 0x22]
    for _ in range(rng.choice([1, 1, 2, 3])):
        roll = rng.random()
        if roll < 0.1:
            starts = [index for index, byte in enumerate(data) if byte >= 0xC2]
            if starts:
                del data[rng.choice(starts) + 1]  # a lead byte without its last continuation
                continue
        at = rng.randrange(len(data) + 1) if roll < 0.25 or len(quotes) < 2 else rng.choice(quotes) + 1
        data[at:at] = rng.choice(BAD_UTF8)
    return route, bytes(data)
