"""The push services of the relay check (fake APNs, FCM and Web Push
endpoints) and the network between them and the devices: latency per
payload (so payloads reorder), offline periods with each service's
store-and-forward, payloads past their lifetime dropped.


The fakes check each transport's size limit on the bytes the relay wrote
(APNs 4,096; FCM 4,096 for the message with its token; Web Push 3,993 of
plaintext: the model does not encrypt) and the lifetime the relay sends
"""
from __future__ import annotations

import json

class Endpoint:
    """A push service: faults the test asks for, limits, then the network
    (latency, offline store-and-forward, expiry)."""
    limit = 4096

    def __init__(self, world):
        self.world = world
        self.devices = {}  # token → Device
        self.failing = {}  # token → transient failures still to answer
        self.timeouts = {}  # token → requests still to time out after they were accepted
        self.gone = set()
        self.failures = {}  # token → transient failures answered so far (they take transient_answers in turn)
        self.accepted_count = 0

    def post(self, token, headers, body: bytes, note):
        world = self.world
        if token in self.gone or token not in self.devices:
            return self.gone_answer()
        if self.failing.get(token, 0) > 0:
            self.failing[token] -= 1
            turn = self.failures.get(token, 0)
            self.failures[token] = turn + 1
            return self.transient_answers[turn % len(self.transient_answers)]
        if len(self.measured(body)) > self.limit:
            return self.too_large()
        message = json.loads(body)
        device, now = self.devices[token], world.clock.now()
        push = self.withdrawal_of(headers, message)
        if push is None:
            lifetime = self.lifetime(headers, message)
            if lifetime > note["expires"] - now // 1000:
                world.violation("L", f"{device.id}: a lifetime of {lifetime} s sent where "
                                     f"{note['expires'] - now // 1000} s were left")
            push = self.alert_of(headers, message)
            push["fields"].update(kind=note["kind"], covers=list(note["shown"]), locale=note["locale"],
                                  preview=note["preview"], requested=note["requested"])
            push["kind"] = note["kind"]
        push["expires"] = self.expires(headers, message)
        push["stamp"] = int(push["stamp"])
        push["badge"] = None if push["badge"] is None else int(push["badge"])
        self.accepted_count += 1
        world.network.accept(self, device, push)
        if self.timeouts.get(token, 0) > 0 or world.net_rng.random() < world.duplicate_rate:
            if self.timeouts.get(token, 0) > 0:
                self.timeouts[token] -= 1
            return None, {}, {}  # accepted, but the relay's request timed out
        return self.accepted()

    def measured(self, body):
        return body

    def offline_keep(self, pending, push):
        """Store-and-forward while the device is offline (the default: keep all, at most 100)."""
        pending.append(push)
        del pending[:-100]


class Apns(Endpoint):
    def gone_answer(self):
        return 410, {}, {"reason": "Unregistered"}

    transient_answers = [(503, {}, {"reason": "ServiceUnavailable"}), (500, {}, {"reason": "InternalServerError"}),
                         (429, {}, {"reason": "TooManyRequests"})]

    def too_large(self):
        return 413, {}, {"reason": "PayloadTooLarge"}

    def accepted(self):
        return 200, {}, {}

    def withdrawal_of(self, headers, message):
        if "withdraw" not in message:
            return None
        return {"message": "withdrawal", "groups": message["withdraw"], "stamp": message["stamp"],
                "badge": message.get("badge")}

    def expires(self, headers, message):
        return int(headers["apns-expiration"]) * 1000

    def lifetime(self, headers, message):
        return int(headers["apns-expiration"]) - self.world.clock.now() // 1000

    def alert_of(self, headers, message):
        aps = message["aps"]
        if headers["apns-collapse-id"] != aps["thread-id"]:
            self.world.violation("T", "apns-collapse-id differs from thread-id")
        alert = aps["alert"]
        return {"message": "alert", "group": headers["apns-collapse-id"], "stamp": message["stamp"],
                "badge": aps.get("badge"), "mutable": aps.get("mutable-content") == 1,
                "fields": {"title": alert["title"], "subtitle": alert.get("subtitle"), "body": alert["body"],
                           "alert": aps["interruption-level"] != "passive"}}

    def offline_keep(self, pending, push):
        """APNs keeps only the last notification for an offline device."""
        pending[:] = [push]


class Fcm(Endpoint):
    def gone_answer(self):
        return 404, {}, {"error": {"status": "UNREGISTERED"}}

    transient_answers = [(503, {}, {"error": {"status": "UNAVAILABLE"}}), (500, {}, {"error": {"status": "INTERNAL"}}),
                         (429, {"Retry-After": "5"}, {"error": {"status": "QUOTA_EXCEEDED"}}),
                         (503, {"Retry-After": "2"}, {"error": {"status": "UNAVAILABLE"}})]

    def too_large(self):
        return 400, {}, {"error": {"status": "INVALID_ARGUMENT"}}

    def accepted(self):
        return 200, {}, {"name": "projects/p/messages/1"}

    def measured(self, body):
        message = json.loads(body)["message"]  # push.md P13: the whole message object, the token included
        return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode()

    def withdrawal_of(self, headers, message):
        data = message["message"]["data"]
        if "withdraw" not in data:
            return None
        return {"message": "withdrawal", "groups": data["withdraw"].split(" ") if data["withdraw"] else [],
                "stamp": data["stamp"], "badge": data.get("badge")}

    def expires(self, headers, message):
        return self.world.clock.now() + int(message["message"]["android"]["ttl"].rstrip("s")) * 1000

    def lifetime(self, headers, message):
        return int(message["message"]["android"]["ttl"].rstrip("s"))

    def alert_of(self, headers, message):
        data = message["message"]["data"]
        if data["tag"] != message["message"]["android"]["collapse_key"]:
            self.world.violation("T", "FCM tag differs from collapse_key")
        return {"message": "alert", "group": data["tag"], "stamp": data["stamp"], "badge": data.get("badge"),
                "collapse": message["message"]["android"]["collapse_key"],
                "fields": {"title": data["title"], "subtitle": data.get("subtitle"), "body": data["body"],
                           "alert": data["alert"] == "true"}}

    def offline_keep(self, pending, push):
        """Up to 100 messages; a collapsible one replaces a pending one of its
        collapse_key; at most 4 collapse keys (the oldest goes)."""
        key = push.get("collapse")
        if key is not None:
            pending[:] = [p for p in pending if p.get("collapse") != key]
            keys = [p["collapse"] for p in pending if p.get("collapse") is not None]
            if len(keys) >= 4:
                pending[:] = [p for p in pending if p.get("collapse") != keys[0]]
        pending.append(push)
        del pending[:-100]


class WebPush(Endpoint):
    limit = 3993

    def gone_answer(self):
        return 410, {}, {}

    transient_answers = [(503, {}, {}), (500, {}, {}), (429, {"Retry-After": "3"}, {})]

    def too_large(self):
        return 413, {}, {}

    def accepted(self):
        return 201, {}, {}

    def withdrawal_of(self, headers, message):
        if "withdraw" not in message:
            return None
        return {"message": "withdrawal", "groups": message["withdraw"], "stamp": message["stamp"],
                "badge": message.get("appBadge"), "topic": headers.get("Topic")}

    def expires(self, headers, message):
        return self.world.clock.now() + int(headers["TTL"]) * 1000

    def lifetime(self, headers, message):
        return int(headers["TTL"])

    def alert_of(self, headers, message):
        return {"message": "alert", "group": message["tag"], "stamp": message["stamp"],
                "badge": message.get("appBadge"), "topic": headers.get("Topic"),
                "fields": {"title": message["title"], "subtitle": message.get("subtitle"), "body": message["body"],
                           "alert": message["alert"]}}

    def offline_keep(self, pending, push):
        """A pending message with the same Topic is replaced."""
        if push.get("topic") is not None:
            pending[:] = [p for p in pending if p.get("topic") != push["topic"]]
        pending.append(push)
        del pending[:-100]


ENDPOINTS = {"apns": Apns, "fcm": Fcm, "webpush": WebPush}


class Network:
    """Between a push service that accepted a payload and the device: a
    latency per payload (so payloads reorder), offline periods with the
    service's store-and-forward, payloads past their lifetime dropped. The
    device's shadow gets the same payloads at the same times, except that
    none is lost to APNs' keep-last."""

    def __init__(self, world, latency_ms=(0, 0)):
        self.world, self.latency_ms = world, latency_ms
        self.scripted = {}  # device id → [(which payloads: any, alert or withdrawal, ms)] for its next payloads

    def latency(self, device, push):
        scripted = self.scripted.get(device.id, [])
        for index, (which, ms) in enumerate(scripted):
            if which in ("any", push["message"]):
                del scripted[index]
                return ms
        lo, hi = self.latency_ms
        return self.world.net_rng.randint(lo, hi) if hi > lo else lo

    def accept(self, endpoint, device, push):
        now = self.world.clock.now()
        if device.offline_until is not None and device.offline_until > now:
            before = [id(p) for p in device.pending]
            endpoint.offline_keep(device.pending, push)
            if endpoint is self.world.endpoints["apns"]:
                if any(b not in {id(p) for p in device.pending} for b in before):
                    device.event("apns-keep-last")
                device.shadow_pending.append(push)
            else:
                endpoint.offline_keep(device.shadow_pending, push)
            return
        self.send(device, push, self.latency(device, push), ("real", "shadow"))

    def send(self, device, push, latency, targets):
        if latency <= 0:
            self.deliver(device, push, targets)
            return
        at = self.world.clock.now() + latency
        self.world.scheduler.call_at(at, "network", lambda: self.deliver(device, push, targets))

    def deliver(self, device, push, targets):
        if self.world.clock.now() > push["expires"]:
            if push["message"] == "alert":
                if "real" in targets:
                    device.expired.append(push)
                if "shadow" in targets and device.shadow is not None:
                    device.shadow.expired.append(push)
            return
        if "real" in targets:
            device.receive(push)
        if "shadow" in targets and device.shadow is not None:
            device.shadow.receive(push)

    def shadow_only(self, device, push):
        """A payload only the shadow gets (a withdrawal the relay does not send to a Web Push device)."""
        now = self.world.clock.now()
        if device.offline_until is not None and device.offline_until > now:
            device.shadow_pending.append(push)
            return
        lo, hi = self.latency_ms
        self.send(device, push, self.world.net_rng.randint(lo, hi) if hi > lo else lo, ("shadow",))

    def offline(self, device, seconds):
        now = self.world.clock.now()
        until = now + int(seconds * 1000)
        if device.offline_until is not None and device.offline_until > now:
            until = max(until, device.offline_until)
        device.offline_until = until
        self.world.scheduler.call_at(until, "network", lambda: self.online(device))

    def online(self, device):
        now = self.world.clock.now()
        if device.offline_until is None or device.offline_until > now:
            return  # a longer offline period was asked since
        device.offline_until = None
        real, shadow = device.pending, device.shadow_pending
        device.pending, device.shadow_pending = [], []
        for push in shadow:  # each delivered after its own latency: reordering
            targets = ("real", "shadow") if any(p is push for p in real) else ("shadow",)
            self.send(device, push, self.latency(device, push), targets)
