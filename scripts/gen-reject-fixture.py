#!/usr/bin/env python3
"""Writes test-fixtures/reject.json: requests that POST /body and POST /compose
refuse, each with the status, the problem `code` and the JSON Pointer
(`pointer`) of the member at fault that the answer must carry.

Every expected value is written out by hand from docs/spec/body.md,
docs/spec/compose.md (section 2.2, Validation, with its unknown members; 2.3,
Timestamps; 9, The `locale` member) and docs/http-api.md (the order of the checks: UTF-8, JSON
syntax, then the members in document order; a missing required member after
the members of its object); nothing here runs an implementation. The Swift
tests send each request to the service over HTTP, to the CLI's --json-lines
and to the library's answer(bodyRequest:) / answer(composeRequest:).
Run: python3 scripts/gen-reject-fixture.py
"""
import json
import os

from readable_json import dumps as readable_dumps

NOW = "2026-11-29T12:00:00Z"
T1 = "2026-11-29T11:59:00Z"


def case(id, route, request, code, pointer, description):
    """`request` is the exact request text; a dict or list is written compactly."""
    if not isinstance(request, str):
        request = json.dumps(request, ensure_ascii=False, separators=(",", ":"))
    return {"id": id, "description": description, "route": route, "request": request, "status": 400,
            "code": code, "pointer": pointer}


def body(id, request, code, pointer, description):
    return case(id, "/body", request, code, pointer, description)


def compose(id, request, code, pointer, description):
    return case(id, "/compose", request, code, pointer, description)


def message(id="1", **members):
    """A valid notification, with `members` changed (None: left out)."""
    base = {"id": id, "type": "message", "timestamp": T1, "thread": "t1", "text": "Hi"}
    base.update(members)
    return {k: v for k, v in base.items() if v is not None}


def request(*notifications, **members):
    """A valid compose request of `notifications`, with `members` added."""
    base = {"now": NOW, "notifications": list(notifications)}
    base.update(members)
    return base


def with_timestamp(timestamp):
    return request(message("1"), message("2", timestamp=timestamp))


CASES = [
    # POST /body: the JSON text.
    body("body-empty", "", "invalid-json", None, "an empty body is not JSON"),
    body("body-unclosed-object", '{"text": "hi"', "invalid-json", None, "the object is not closed"),
    body("body-trailing-comma", '{"text": "hi",}', "invalid-json", None, "a comma before the closing brace"),
    body("body-single-quotes", "{'text': 'hi'}", "invalid-json", None, "single quotes are not JSON"),
    body("body-raw-tab-in-string", '{"text": "a\tb"}', "invalid-json", None,
         "a raw control character (U+0009) inside a string"),
    body("body-bad-escape", '{"text": "a\\x41"}', "invalid-json", None, "\\x is not a JSON escape"),
    body("body-two-values", '{"text": "a"} {"text": "b"}', "invalid-json", None, "two JSON texts in one body"),
    body("body-lone-high-surrogate", '{"text": "\\ud800"}', "lone-surrogate", None,
         "a high surrogate escape with no low one after it"),
    body("body-lone-low-surrogate", '{"text": "x\\udc00y"}', "lone-surrogate", None,
         "a low surrogate escape with no high one before it"),
    body("body-duplicate-text", '{"text": "a", "text": "b"}', "duplicate-member", None,
         "text twice: parsers disagree on which one wins"),
    # These two put the JSON error inside the unknown member `x`; while unknown members were ignored that was
    # where it hid. `x` is now refused itself (unknown-member, compose.md 2.2), but the JSON text's problem
    # comes first, so the expected code is unchanged.
    body("body-duplicate-in-unknown-member", '{"text": "a", "x": {"k": 1, "k": 2}}', "duplicate-member", None,
         "a repeated name inside the unknown member x: the JSON text's problem comes before x's unknown-member"),
    body("body-nesting-65", '{"text": "a", "x": ' + "[" * 64 + "]" * 64 + "}", "nesting-too-deep", None,
         "the root object and 64 arrays: 65 levels (in the unknown member x, whose unknown-member comes after)"),
    body("body-json-before-fields", '{"maxUnits": 1, "text": }', "invalid-json", None,
         "a syntax error is reported before a member's problem that comes first"),
    # POST /body: the members.
    body("body-root-array", '["hi"]', "invalid-type", "", "the body must be an object"),
    body("body-root-string", '"hi"', "invalid-type", "", "a JSON string is not a request"),
    body("body-missing-text", "{}", "missing-field", "/text", "text is required"),
    body("body-null-text", '{"text": null}', "missing-field", "/text", "null counts as absent"),
    body("body-text-number", '{"text": 5}', "invalid-type", "/text", "text must be a string"),
    body("body-text-array", '{"text": ["a"]}', "invalid-type", "/text", "text must be a string, not an array"),
    body("body-max-units-fraction", '{"text": "hi", "maxUnits": 256.0}', "invalid-type", "/maxUnits",
         "256.0 is not an integer as written"),
    body("body-max-units-exponent", '{"text": "hi", "maxUnits": 2.56e2}', "invalid-type", "/maxUnits",
         "an exponent makes it a fraction as written"),
    body("body-max-units-string", '{"text": "hi", "maxUnits": "300"}', "invalid-type", "/maxUnits",
         "a number in a string is not an integer"),
    body("body-max-units-bool", '{"text": "hi", "maxUnits": true}', "invalid-type", "/maxUnits",
         "a boolean is not an integer"),
    body("body-max-units-below", '{"text": "hi", "maxUnits": 255}', "out-of-range", "/maxUnits",
         "maxUnits is 256 at least"),
    body("body-max-units-above", '{"text": "hi", "maxUnits": 4097}', "out-of-range", "/maxUnits",
         "maxUnits is 4096 at most"),
    body("body-max-units-negative", '{"text": "hi", "maxUnits": -256}', "out-of-range", "/maxUnits",
         "a negative integer"),
    body("body-max-units-huge", '{"text": "hi", "maxUnits": 99999999999999999999999}', "out-of-range",
         "/maxUnits", "an integer too large for 64 bits is out of range, not malformed"),
    body("body-document-order", '{"maxUnits": 1, "text": 5}', "out-of-range", "/maxUnits",
         "the first member's problem in document order"),
    # POST /body: unknown members (compose.md 2.2, "Unknown members are refused"; body.md, Input and output).
    body("body-unknown-misspelled", '{"text": "hi", "maxUnit": 300}', "unknown-member", "/maxUnit",
         "maxUnit is not maxUnits: refused, not ignored with the default cap"),
    body("body-unknown-case-variant", '{"Text": "hi"}', "unknown-member", "/Text",
         "names are compared exactly; the unknown member comes before text is missing"),
    body("body-unknown-null", '{"text": "hi", "x": null}', "unknown-member", "/x",
         "an unknown member is refused whatever its value, null included"),
    body("body-unknown-object", '{"text": "hi", "options": {"maxUnits": 300}}', "unknown-member", "/options",
         "the problem names the unknown member, not what it holds"),
    body("body-unknown-after-member-problem", '{"maxUnits": 1, "x": 1, "text": "hi"}', "out-of-range",
         "/maxUnits", "document order: maxUnits' problem comes before the unknown member after it"),
    body("body-unknown-before-member-problem", '{"x": 1, "maxUnits": 1, "text": "hi"}', "unknown-member", "/x",
         "document order: the unknown member comes before maxUnits' problem after it"),
    body("body-unknown-json-error-first", '{"maxUnit": 300, "text": "hi",}', "invalid-json", None,
         "a problem of the JSON text anywhere comes before the unknown member"),
    # POST /compose: the JSON text.
    compose("compose-unclosed", '{"notifications": [', "invalid-json", None, "the array is not closed"),
    compose("compose-json-before-fields", '{"maxUnits": 1, "notifications": [}', "invalid-json", None,
            "a syntax error anywhere is reported before the first member's problem"),
    compose("compose-lone-surrogate-in-text",
            '{"now": "%s", "notifications": [{"id": "1", "type": "message", "timestamp": "%s", '
            '"text": "\\ud83d"}]}' % (NOW, T1), "lone-surrogate", None,
            "half of an escaped emoji in a message's text"),
    compose("compose-duplicate-id",
            '{"now": "%s", "notifications": [{"id": "1", "id": "2", "type": "message", "timestamp": "%s"}]}'
            % (NOW, T1), "duplicate-member", None, "a notification with id twice"),
    compose("compose-duplicate-top-level", '{"notifications": [], "notifications": []}', "duplicate-member", None,
            "notifications twice"),
    # POST /compose: the request object.
    compose("compose-root-array", "[]", "invalid-type", "", "the body must be an object"),
    compose("compose-root-null", "null", "invalid-type", "", "null is not a request"),
    compose("compose-missing-notifications", {"now": NOW}, "missing-field", "/notifications",
            "notifications is required when fetch is ok (the default)"),
    compose("compose-null-notifications", {"now": NOW, "notifications": None}, "missing-field", "/notifications",
            "null counts as absent"),
    compose("compose-notifications-object", {"now": NOW, "notifications": {}}, "invalid-type", "/notifications",
            "notifications must be an array"),
    compose("compose-too-many-notifications", '{"notifications": [%s]}' % ",".join(["0"] * 1001),
            "out-of-range", "/notifications",
            "1001 notifications: too many is found before any element's problem"),
    compose("compose-displayed-object", request(message(), displayed={}), "invalid-type", "/displayed",
            "displayed must be an array"),
    compose("compose-too-many-displayed",
            '{"notifications": [], "displayed": [%s]}' % ",".join(["0"] * 10001), "out-of-range", "/displayed",
            "10001 displayed entries"),
    compose("compose-now-number", {"now": 1764417600, "notifications": []}, "invalid-type", "/now",
            "now must be a string, not epoch seconds"),
    compose("compose-max-units-fraction", request(message(), maxUnits=256.0), "invalid-type", "/maxUnits",
            "256.0 is not an integer as written"),
    compose("compose-max-units-below", request(message(), maxUnits=100), "out-of-range", "/maxUnits",
            "maxUnits is 256 at least"),
    compose("compose-max-age-negative", request(message(), maxAgeSeconds=-1), "out-of-range", "/maxAgeSeconds",
            "maxAgeSeconds is 0 at least"),
    compose("compose-max-age-above", request(message(), maxAgeSeconds=86401), "out-of-range", "/maxAgeSeconds",
            "maxAgeSeconds is 86400 at most"),
    compose("compose-max-age-string", request(message(), maxAgeSeconds="600"), "invalid-type", "/maxAgeSeconds",
            "a number in a string"),
    compose("compose-app-number", request(message(), app=7), "invalid-type", "/app", "app must be a string"),
    compose("compose-recipient-object", request(message(), recipient={"id": "u1"}), "invalid-type", "/recipient",
            "recipient is an id, a string"),
    compose("compose-fetch-upper-case", request(message(), fetch="OK"), "invalid-value", "/fetch",
            "fetch is spelled exactly"),
    compose("compose-fetch-unknown", {"now": NOW, "fetch": "crashed"}, "invalid-value", "/fetch",
            "fetch is ok, failed or timeout"),
    compose("compose-fetch-bool", {"now": NOW, "fetch": False}, "invalid-type", "/fetch", "fetch must be a string"),
    compose("compose-locale-trailing-newline", request(message(), locale="en_US\n"), "invalid-locale", "/locale",
            "nothing may follow the tag, not even a newline"),
    compose("compose-locale-one-letter", request(message(), locale="e"), "invalid-locale", "/locale",
            "a language has 2 or 3 letters"),
    compose("compose-locale-word", request(message(), locale="english"), "invalid-locale", "/locale",
            "a language has at most 3 letters"),
    compose("compose-locale-empty-subtag", request(message(), locale="de--CH"), "invalid-locale", "/locale",
            "an empty subtag"),
    compose("compose-locale-65-characters", request(message(), locale="en" + "-abcdefgh" * 7), "invalid-locale",
            "/locale", "65 characters, one more than allowed"),
    compose("compose-locale-number", request(message(), locale=1), "invalid-type", "/locale",
            "locale must be a string"),
    compose("compose-document-order", request(message(timestamp="soon"), maxUnits=1), "invalid-timestamp",
            "/notifications/0/timestamp", "the first problem in document order: notifications come before maxUnits"),
    # Timestamps (compose.md section 2.3).
    compose("compose-now-invalid-month", {"now": "2026-13-01T00:00:00Z", "notifications": []},
            "invalid-timestamp", "/now", "month 13"),
    compose("compose-timestamp-space", with_timestamp("2026-11-29 11:59:00Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "a space instead of T"),
    compose("compose-timestamp-no-offset", with_timestamp("2026-11-29T11:59:00"), "invalid-timestamp",
            "/notifications/1/timestamp", "an offset is required"),
    compose("compose-timestamp-february-30", with_timestamp("2028-02-30T10:00:00Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "a day that does not exist"),
    compose("compose-timestamp-february-29-not-leap", with_timestamp("2026-02-29T10:00:00Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "2026 is not a leap year"),
    compose("compose-timestamp-hour-24", with_timestamp("2026-11-29T24:00:00Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "hours end at 23"),
    compose("compose-timestamp-empty-fraction", with_timestamp("2026-11-29T11:59:00.Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "a fraction needs a digit"),
    compose("compose-timestamp-offset-24", with_timestamp("2026-11-29T11:59:00+24:00"), "invalid-timestamp",
            "/notifications/1/timestamp", "offset hours end at 23"),
    compose("compose-timestamp-leap-second-midday", with_timestamp("2026-11-29T12:00:60Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "second 60 only at 23:59:60 UTC on a month's last day"),
    compose("compose-timestamp-short-year", with_timestamp("26-11-29T11:59:00Z"), "invalid-timestamp",
            "/notifications/1/timestamp", "the year has four digits"),
    compose("compose-timestamp-number", with_timestamp(1764417540), "invalid-type", "/notifications/1/timestamp",
            "a timestamp is a string"),
    # Notifications.
    compose("compose-notification-number", request(message(), 5), "invalid-type", "/notifications/1",
            "each notification is an object"),
    compose("compose-missing-id", request(message(id=None)), "missing-field", "/notifications/0/id",
            "id is required"),
    compose("compose-missing-type", request(message(), message("2", type=None)), "missing-field",
            "/notifications/1/type", "type is required"),
    compose("compose-missing-timestamp", request(message(timestamp=None)), "missing-field",
            "/notifications/0/timestamp", "timestamp is required"),
    compose("compose-missing-after-members", request({"type": "message", "timestamp": T1, "read": "no"}),
            "invalid-type", "/notifications/0/read",
            "a missing member is reported after the members of its object"),
    compose("compose-id-number", request(message(id=1)), "invalid-type", "/notifications/0/id",
            "id must be a string"),
    compose("compose-source-colon", request(message(source="chat:eu")), "invalid-value", "/notifications/0/source",
            "a source must not contain ':' (keys are source:id)"),
    compose("compose-read-string", request(message(read="yes")), "invalid-type", "/notifications/0/read",
            "read must be a boolean"),
    compose("compose-text-array", request(message(text=["Hi"])), "invalid-type", "/notifications/0/text",
            "text must be a string"),
    compose("compose-sender-string", request(message(sender="Ana")), "invalid-type", "/notifications/0/sender",
            "sender must be an object"),
    compose("compose-sender-name-number", request(message(), message("2", sender={"id": "u2", "name": 2})),
            "invalid-type", "/notifications/1/sender/name", "a sender's name must be a string"),
    # Displayed entries.
    compose("compose-displayed-entry-string", request(message(), displayed=["chat:1"]), "invalid-type",
            "/displayed/0", "each displayed entry is an object"),
    compose("compose-displayed-missing-key", request(message(), displayed=[{"timestamp": T1}]), "missing-field",
            "/displayed/0/key", "key is required when the entry has no group"),
    compose("compose-displayed-group-invalid",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1, "group": "a b"}]), "invalid-value",
            "/displayed/0/group", "a group is a group key: 1 to 64 visible ASCII characters other than quote and "
            "backslash"),
    # A second object of the first one's shape (the shaped read): the same rules hold there.
    compose("compose-source-colon-shaped",
            request(message("1", source="chat"), message("2", source="a:b")), "invalid-value",
            "/notifications/1/source", "a source must not contain ':', in a second notification of the first's shape"),
    compose("compose-displayed-group-invalid-shaped",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1, "group": "t1"},
                                          {"key": "chat:2", "timestamp": T1, "group": "a b"}]), "invalid-value",
            "/displayed/1/group", "a group is a group key, in a second entry of the first's shape"),
    compose("compose-displayed-digest-invalid-shaped",
            request(message(), displayed=[
                {"key": "chat:1", "timestamp": T1, "group": "t1", "digest": "0123456789abcdef", "alerted": T1,
                 "direct": False},
                {"key": "chat:2", "timestamp": T1, "group": "t1", "digest": "0123456789ABCDEF", "alerted": T1,
                 "direct": False}]), "invalid-value",
            "/displayed/1/digest", "a digest is 16 characters of 0-9 and a-f, in a second entry of the first's shape"),
    compose("compose-displayed-alerted-invalid-shaped",
            request(message(), displayed=[
                {"key": "chat:1", "timestamp": T1, "group": "t1", "digest": "0123456789abcdef", "alerted": T1},
                {"key": "chat:2", "timestamp": T1, "group": "t1", "digest": "0123456789abcdef",
                 "alerted": "2026-02-30T00:00:00Z"}]), "invalid-timestamp",
            "/displayed/1/alerted", "alerted is a timestamp (February 30 is not), in a second entry of the first's shape"),
    compose("compose-importance-word", request(message(importance="urgent")), "invalid-value",
            "/notifications/0/importance", "an importance is low, normal or high (compose.md C16)"),
    compose("compose-importance-word-shaped",
            request(message("1", importance="high"), message("2", importance="High")), "invalid-value",
            "/notifications/1/importance", "an importance is spelled exactly, in a second notification of the "
            "first's shape"),
    compose("compose-importance-number", request(message(importance=2)), "invalid-type",
            "/notifications/0/importance", "an importance is a string"),
    compose("compose-avatar-not-navigable-shaped",
            request(message("1", sender={"name": "Ana", "avatar": "https://chat.example/a.png"}),
                    message("2", sender={"name": "Ben", "avatar": "chat.example/b.png"})), "invalid-value",
            "/notifications/1/sender/avatar", "an avatar is an https:// or http:// URL, in a second notification "
            "of the first's shape"),
    compose("compose-avatar-513-bytes", request(message(sender={"avatar": "https://a.example/" + "v" * 495})),
            "invalid-value", "/notifications/0/sender/avatar", "an avatar is at most 512 bytes"),
    compose("compose-thread-is-group-string", request(message(threadIsGroup="yes")), "invalid-type",
            "/notifications/0/threadIsGroup", "threadIsGroup is a boolean"),
    compose("compose-sender-unknown-member", request(message(sender={"name": "Ana", "picture": "x"})),
            "unknown-member", "/notifications/0/sender/picture", "a sender has id, name and avatar"),
    compose("compose-displayed-direct-string",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1, "group": "t1", "direct": "yes"}]),
            "invalid-type", "/displayed/0/direct", "direct is a boolean"),
    compose("compose-push-active-until-invalid",
            request(message(), push={"activeUntil": "2026-11-29 12:01:00Z"}), "invalid-timestamp",
            "/push/activeUntil", "activeUntil is an RFC 3339 timestamp (a space instead of T is not)"),
    compose("compose-push-window-out-of-range", request(message(), push={"alertWindowSeconds": 86401}),
            "out-of-range", "/push/alertWindowSeconds", "alertWindowSeconds is at most 86400"),
    compose("compose-displayed-group-number",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1, "group": 1}]), "invalid-type",
            "/displayed/0/group", "a group must be a string"),
    compose("compose-displayed-17-groups",
            request(message(), displayed=[{"key": f"k{i}", "timestamp": T1, "group": f"g{i % 17}"} for i in range(20)]),
            "out-of-range", "/displayed/16/group", "at most 16 distinct groups: the entry that brings the 17th"),
    compose("compose-displayed-missing-timestamp",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1}, {"key": "chat:2"}]),
            "missing-field", "/displayed/1/timestamp", "timestamp is required"),
    compose("compose-displayed-bad-timestamp", request(message(), displayed=[{"key": "1", "timestamp": "yesterday"}]),
            "invalid-timestamp", "/displayed/0/timestamp", "a displayed entry's timestamp is RFC 3339"),
    # preview and push (docs/spec/compose.md 6.4 and 6.6; test-fixtures/push.json has more).
    compose("compose-preview-uppercase", request(message(), preview="FULL"), "invalid-value", "/preview",
            "preview is full, sender or none, spelled exactly"),
    compose("compose-preview-number", request(message(), preview=1), "invalid-type", "/preview",
            "preview must be a string"),
    compose("compose-push-array", request(message(), push=[]), "invalid-type", "/push", "push must be an object"),
    compose("compose-push-badge-negative", request(message(), push={"badge": -1}), "out-of-range", "/push/badge",
            "a badge is 0 or more"),
    compose("compose-push-badge-fraction", request(message(), push={"badge": 1.0}), "invalid-type", "/push/badge",
            "a badge is an integer written without fraction"),
    compose("compose-push-reserve-2049", request(message(), push={"reserveBytes": 2049}), "out-of-range",
            "/push/reserveBytes", "reserveBytes is at most 2048"),
    compose("compose-push-stamp-2-53", request(message(), push={"stamp": 9007199254740992}), "out-of-range",
            "/push/stamp", "a stamp is at most 2^53 - 1, which every JSON reader holds exactly"),
    compose("compose-push-stamp-fraction", request(message(), push={"stamp": 1.5}), "invalid-type", "/push/stamp",
            "a stamp is an integer"),
    compose("compose-push-channel-empty", request(message(), push={"androidChannel": ""}), "invalid-value",
            "/push/androidChannel", "an Android channel has 1 to 128 bytes"),
    compose("compose-push-channel-line-feed", request(message(), push={"androidChannel": "a\nb"}), "invalid-value",
            "/push/androidChannel", "an Android channel has no control character"),
    compose("compose-push-webpush-unknown", request(message(), push={"webPush": "json"}), "invalid-value",
            "/push/webPush", "webPush is classic or declarative"),
    compose("compose-push-declarative-without-navigate", request(message(), push={"webPush": "declarative"}),
            "missing-field", "/push/navigate", "a declarative Web Push payload needs the app URL navigate"),
    compose("compose-push-navigate-relative", request(message(), push={"navigate": "/inbox"}), "invalid-value",
            "/push/navigate", "navigate is an absolute https or http URL"),
    compose("compose-push-mutable-string", request(message(), push={"mutable": "yes"}), "invalid-type",
            "/push/mutable", "mutable is a boolean"),
    # Unknown members (compose.md 2.2, "Unknown members are refused"): in every object, by its pointer.
    compose("compose-unknown-preview-misspelled", request(message(), preveiw="none"), "unknown-member", "/preveiw",
            "preveiw is not preview: ignoring it would show the sender's text (the default tier, full)"),
    compose("compose-unknown-preview-case-variant", request(message(), Preview="none"), "unknown-member",
            "/Preview", "names are compared exactly: Preview is not preview"),
    compose("compose-unknown-null", request(message(), preveiw=None), "unknown-member", "/preveiw",
            "an unknown member is refused whatever its value, null included"),
    compose("compose-unknown-escaped-name", '{"now": "%s", "notifications": [], "\u0050review": "none"}' % NOW,
            "unknown-member", "/Preview", "names are compared after unescaping; the pointer has the unescaped name"),
    compose("compose-unknown-object-value", request(message(), options={"preview": "none"}), "unknown-member",
            "/options", "the problem names the unknown member, not the members inside it"),
    compose("compose-unknown-pointer-escapes", request(message(), **{"a/b~c": 1}), "unknown-member", "/a~1b~0c",
            "RFC 6901: ~ is written ~0 and / is written ~1 in the pointer"),
    compose("compose-unknown-in-fallback", {"now": NOW, "fetch": "failed", "app": "Wiki", "locale": "de",
                                            "preveiw": "none"}, "unknown-member", "/preveiw",
            "refused whether or not the notifications are looked at"),
    compose("compose-unknown-notification-member", request(message(), message("2", threadtitle="Release")),
            "unknown-member", "/notifications/1/threadtitle",
            "a case variant of threadTitle in the second notification (not read by the first one's shape)"),
    compose("compose-unknown-notification-misspelled", request(message(txet="Hi")), "unknown-member",
            "/notifications/0/txet", "a misspelled text in a notification"),
    compose("compose-unknown-before-missing", request({"ID": "1", "type": "message", "timestamp": T1}),
            "unknown-member", "/notifications/0/ID",
            "an unknown member is a member's problem: it comes before the missing id, reported after the members"),
    compose("compose-unknown-sender-member", request(message(sender={"id": "u1", "nmae": "Ana"})),
            "unknown-member", "/notifications/0/sender/nmae", "a misspelled name in a sender"),
    compose("compose-unknown-sender-case-variant", request(message(), message("2", sender={"Name": "Ana"})),
            "unknown-member", "/notifications/1/sender/Name", "a case variant of name in a sender"),
    compose("compose-unknown-displayed-member",
            request(message(), displayed=[{"key": "chat:1", "timestamp": T1}, {"key": "chat:2", "timestamp": T1,
                                                                              "Key": "chat:3"}]),
            "unknown-member", "/displayed/1/Key", "a case variant of key in the second displayed entry"),
    compose("compose-unknown-push-misspelled", request(message(), push={"badges": 3}), "unknown-member",
            "/push/badges", "a misspelled badge inside push"),
    compose("compose-unknown-push-case-variant", request(message(), push={"Badge": 3}), "unknown-member",
            "/push/Badge", "a case variant of badge inside push"),
    compose("compose-unknown-push-request-member", request(message(), push={"preview": "none"}), "unknown-member",
            "/push/preview", "preview belongs to the request, not to push"),
    compose("compose-unknown-after-member-problem",
            '{"now": "%s", "maxUnits": 1, "preveiw": "none", "notifications": []}' % NOW, "out-of-range",
            "/maxUnits", "document order: maxUnits' problem comes before the unknown member after it"),
    compose("compose-unknown-before-member-problem",
            '{"now": "%s", "preveiw": "none", "maxUnits": 1, "notifications": []}' % NOW, "unknown-member",
            "/preveiw", "document order: the unknown member comes before maxUnits' problem after it"),
    compose("compose-unknown-json-error-first", '{"preveiw": "none", "notifications": [}', "invalid-json", None,
            "a problem of the JSON text anywhere comes before the unknown member"),
    compose("compose-unknown-duplicate-first", '{"x": 1, "x": 2, "notifications": []}', "duplicate-member", None,
            "a repeated unknown name is a problem of the JSON text: it comes first"),
]


def main():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids)), "duplicate ids"
    fixture = {
        "comment": [
            "Requests that POST /body and POST /compose refuse (docs/spec/body.md, docs/spec/compose.md section 2.2"
            " Validation, 2.3 Timestamps and 9 The `locale` member; the order of the checks in docs/http-api.md),"
            " written by hand from the specs.",
            "Each case: `route` (/body or /compose) and `request`, the exact request body as text (many are not"
            " JSON); the answer must be `status` with the application/problem+json `code`, and the member"
            " `pointer`: the RFC 6901 JSON Pointer to the member at fault (\"\" for the body as a whole), or"
            " absent from the answer when `pointer` is null (a problem of the JSON text itself).",
            "`detail` is words for people and not part of the contract. Compare code and pointer exactly.",
            "Generated by scripts/gen-reject-fixture.py; edit the script, not this file.",
        ],
        "cases": CASES,
    }
    path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test-fixtures", "reject.json")
    with open(path, "w", encoding="utf-8") as out:
        out.write(readable_dumps(fixture, indent=1) + "\n")
    print(f"wrote {len(CASES)} cases to test-fixtures/reject.json")


if __name__ == "__main__":
    main()
