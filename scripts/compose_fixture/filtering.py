"""compose.json's cases of fallbacks, drops, time boundaries, keys and ordering
(compose.md sections 3 to 5)."""
from compose_fixture.build import ELLIPSIS, LONG_APP, NOW, at, case, fallback, note, req, resp

# ---------------------------------------------------------------- fallbacks
case("fallback-fetch-failed",
     "fetch failed: fallback with reason failed, app texts, nothing shown; the next state records the fallback "
     "notification at now (C10 step 1)",
     req(fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")]))

case("fallback-fetch-timeout-ignores-notifications-and-keeps-displayed",
     "fetch timeout: notifications are not looked at, no drops; displayed is carried over whole (stale entries too: "
     "the device still shows them) and records the fallback at now (was: stale entries pruned, before C10 recorded "
     "the screen)",
     req([note("1", at(-10))], [("old", at(-601), "t1"), ("kept", at(-600), "t1")], fetch="timeout"),
     fallback("timeout", displayed=[(None, NOW, "fallback"), ("kept", at(-600), "t1"), ("old", at(-601), "t1")]))

case("fallback-empty-without-notifications",
     "fetch ok with no notifications: fallback with reason empty",
     req([]),
     fallback("empty"))

case("fallback-empty-when-everything-is-dropped",
     "every notification dropped: fallback empty, dropped lists them in input order",
     req([note("1", at(-10), read=True), note("2", at(-700))]),
     fallback("empty", dropped=[("1", "read"), ("2", "stale")]))

case("fallback-custom-app",
     "the request's app names the fallback",
     req([], app="Wikipedia"),
     fallback("empty", app="Wikipedia"))

case("app-empty-means-default",
     "an empty app is the server's default, Buzz",
     req([], app=""),
     fallback("empty"))

case("app-whitespace-is-normalised",
     "the app is plain text: whitespace runs become one space and the ends are trimmed, in the title and in the texts",
     req([], app="  My\t\u00a0Wiki\n"),
     fallback("empty", app="My Wiki"))

case("app-whitespace-only-means-default",
     "an app that normalises to empty counts as absent: Buzz",
     req([], app=" \u2003\n"),
     fallback("empty"))

case("app-long-is-capped-in-title-and-body",
     "a 300-unit app: the title is capped at 256 units, the fallback body at maxUnits (256)",
     req([], app=LONG_APP),
     fallback("empty", title="a" * 255 + ELLIPSIS,
              body="There might be new activity on " + "a" * 224 + ELLIPSIS))

case("app-long-fallback-body-fits-a-larger-cap",
     "with maxUnits 4096 the 332-unit fallback body is whole; the title is still capped at 256",
     req([], app=LONG_APP, maxUnits=4096),
     fallback("empty", title="a" * 255 + ELLIPSIS,
              body="There might be new activity on " + "a" * 300 + "."))

# ---------------------------------------------------------------- drops
case("drop-duplicate-key-keeps-the-first",
     "a key seen earlier in the request is a duplicate; the first one is shown",
     req([note("1", at(-10), text="first"), note("1", at(-5), text="second")]),
     resp("single", "Buzz", "first", "1", shown=["1"], dropped=[("1", "duplicate")],
          displayed=[("1", at(-10))]))

case("drop-duplicate-counts-dropped-earlier-keys",
     "a key is a duplicate even when its earlier occurrence was dropped for another reason",
     req([note("1", at(-10), read=True), note("1", at(-5))]),
     fallback("empty", dropped=[("1", "read"), ("1", "duplicate")]))

case("drop-read",
     "a read notification is dropped",
     req([note("1", at(-10), read=True, text="x"), note("2", at(-20), read=False, text="Hi")]),
     resp("single", "Buzz", "Hi", "2", shown=["2"], dropped=[("1", "read")], displayed=[("2", at(-20))]))

case("drop-own",
     "a notification whose sender.id equals recipient is the recipient's own",
     req([note("1", at(-10), sender_id="me", name="Me", text="mine"),
          note("2", at(-20), sender_id="ana", name="Ana", text="Hi")], recipient="me"),
     resp("single", "Ana", "Hi", "2", shown=["2"], dropped=[("1", "own")], displayed=[("2", at(-20))]))

case("own-needs-a-recipient",
     "without recipient nothing is own",
     req([note("1", at(-10), sender_id="me", name="Me", text="mine")]),
     resp("single", "Me", "mine", "1", shown=["1"], displayed=[("1", at(-10))]))

case("own-needs-a-sender-id",
     "a sender without id is never the recipient",
     req([note("1", at(-10), name="Me", text="mine")], recipient="me"),
     resp("single", "Me", "mine", "1", shown=["1"], displayed=[("1", at(-10))]))

case("drop-precedence",
     "each notification gets the first reason that applies: duplicate, read, own, stale, future (the displayed "
     "reason and its notification d are gone: a key in displayed is kept when unread, C2); the next state is the "
     "shown key alone, the entries s and f leave it",
     req([note("k", at(-10)),
          note("k", at(-700), read=True, sender_id="me"),
          note("r", at(-700), read=True, sender_id="me"),
          note("o", at(-700), sender_id="me"),
          note("s", at(-700)),
          note("f", at(400))],
         [("s", at(-30), "s"), ("f", at(-30), "s")], recipient="me"),
     resp("single", "Buzz", "New message", "k", shown=["k"],
          dropped=[("k", "duplicate"), ("r", "read"), ("o", "own"), ("s", "stale"), ("f", "future")],
          displayed=[("k", at(-10))]))

case("displayed-and-unread-is-kept",
     "a key in displayed that is still unread is kept and shown again: message 2 joins message 1, which the device "
     "shows under t1, in a bundle of 2 that replaces it (was: 1 dropped as displayed, and the single of 2 replaced "
     "it: message 1 vanished unread)",
     req([note("1", at(-10), thread="t1"), note("2", at(-20), thread="t1", text="new")], [("1", at(-10), "t1")]),
     resp("bundle", "Buzz", "2 new messages", "t1", shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("displayed-stale-entry-of-an-unread-key",
     "an entry's own time does not matter: the unread, fresh notification is kept, and the next state records it "
     "with its own timestamp (was: dropped as displayed)",
     req([note("1", at(-10))], [("1", at(-601))]),
     resp("single", "Buzz", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

# ---------------------------------------------------------------- time boundaries
case("stale-boundary-exactly-max-age-is-fresh",
     "now - timestamp == maxAgeSeconds is fresh; one second more is stale",
     req([note("old", at(-601)), note("edge", at(-600))]),
     resp("single", "Buzz", "New message", "edge", shown=["edge"], dropped=[("old", "stale")],
          displayed=[("edge", at(-600))]))

case("stale-boundary-fractional-seconds",
     "fractions count: 600 s is fresh, 600.000000001 s is stale",
     req([note("a", "2026-11-29T11:49:59.999999999Z"), note("b", "2026-11-29T11:50:00.000000000Z")]),
     resp("single", "Buzz", "New message", "b", shown=["b"], dropped=[("a", "stale")],
          displayed=[("b", "2026-11-29T11:50:00.000000000Z")]))

case("stale-boundary-with-offsets",
     "offsets are applied before comparing: 13:50+02:00 is exactly 600 s old, 06:49:59-05:00 is 601 s old",
     req([note("east", "2026-11-29T13:50:00+02:00"), note("west", "2026-11-29T06:49:59-05:00")]),
     resp("single", "Buzz", "New message", "east", shown=["east"], dropped=[("west", "stale")],
          displayed=[("east", "2026-11-29T13:50:00+02:00")]))

case("future-boundary-300-seconds-is-fresh",
     "timestamp - now == 300 s is fresh; 301 s is future",
     req([note("ahead", at(300)), note("skewed", at(301))]),
     resp("single", "Buzz", "New message", "ahead", shown=["ahead"], dropped=[("skewed", "future")],
          displayed=[("ahead", at(300))]))

case("future-boundary-fractional-seconds",
     "300.000000001 s ahead is future, and so is 300.0000000001 s (any number of digits); 300.000000000000 s is fresh",
     req([note("ns", "2026-11-29T12:05:00.000000001Z"),
          note("sub-ns", "2026-11-29T12:05:00.0000000001Z"),
          note("zeros", "2026-11-29T12:05:00.000000000000Z")]),
     resp("single", "Buzz", "New message", "zeros", shown=["zeros"],
          dropped=[("ns", "future"), ("sub-ns", "future")],
          displayed=[("zeros", "2026-11-29T12:05:00.000000000000Z")]))

case("max-age-zero-with-fractional-now",
     "maxAgeSeconds 0: only times at or after now are fresh; now may have a fraction and an offset",
     req([note("before", "2026-11-29T12:00:00.499Z"), note("same", "2026-11-29T12:00:00.5Z")],
         now="2026-11-29T13:00:00.500+01:00", maxAgeSeconds=0),
     resp("single", "Buzz", "New message", "same", shown=["same"], dropped=[("before", "stale")],
          displayed=[("same", "2026-11-29T12:00:00.5Z")]))

case("max-age-one-day",
     "maxAgeSeconds 86400: a day old is fresh, a day and a second is stale",
     req([note("day", "2026-11-28T12:00:00Z"), note("older", "2026-11-28T11:59:59Z")], maxAgeSeconds=86400),
     resp("single", "Buzz", "New message", "day", shown=["day"], dropped=[("older", "stale")],
          displayed=[("day", "2026-11-28T12:00:00Z")]))

case("timestamps-lowercase-t-and-z-and-minus-zero-offset",
     "RFC 3339 allows lower-case t and z and the offset -00:00; they are echoed exactly as written",
     req([note("lower", "2026-11-29t11:59:00z"), note("unknown-offset", "2026-11-29T11:58:00-00:00")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["lower", "unknown-offset"],
          displayed=[("lower", "2026-11-29t11:59:00z"), ("unknown-offset", "2026-11-29T11:58:00-00:00")]))

case("timestamps-leap-second",
     "23:59:60 is accepted where RFC 3339 places a leap second, on the last day of a month in UTC (here once in Z "
     "and once through +01:00): the notification at 23:59:60Z is fresh and echoed as written; the displayed entry "
     "leaves the state (the next state is the shown key alone, C10)",
     req([note("leap", "2016-12-31T23:59:60Z", thread="t", text="Happy new year")],
         displayed=[("old", "2017-01-01T00:59:60.5+01:00", "t")], now="2017-01-01T00:00:30Z"),
     resp("single", "Buzz", "Happy new year", "t", shown=["leap"],
          displayed=[("leap", "2016-12-31T23:59:60Z")]))

case("timestamps-leap-second-orders-carried-over-entries",
     "a leap second denotes 00:00:00 of the next day plus its fraction: carried over by a failed fetch, the entry at "
     "00:59:60.5+01:00 is half a second newer than the one at 23:59:60Z, and the fallback entry at now is newest; "
     "all echoed as written",
     req(displayed=[("leap", "2016-12-31T23:59:60Z", "t"), ("old", "2017-01-01T00:59:60.5+01:00", "t")],
         now="2017-01-01T00:00:30Z", fetch="failed"),
     fallback("failed", displayed=[(None, "2017-01-01T00:00:30Z", "fallback"),
                                   ("old", "2017-01-01T00:59:60.5+01:00", "t"),
                                   ("leap", "2016-12-31T23:59:60Z", "t")]))

# ---------------------------------------------------------------- keys
case("key-is-source-colon-id",
     "the key is source:id; a notification without source has the key id, a different key: both are shown (was: "
     "wiki:7 in displayed and dropped as displayed, a reason that is gone)",
     req([note("7", at(-10), source="wiki"), note("7", at(-20))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary", shown=["wiki:7", "7"],
          displayed=[("wiki:7", at(-10)), ("7", at(-20))]))

case("key-with-empty-source-is-the-id",
     "an empty source counts as no source: the key is the id (so it duplicates the sourceless one)",
     req([note("7", at(-10), source=""), note("7", at(-20))]),
     resp("single", "Buzz", "New message", "7", shown=["7"], dropped=[("7", "duplicate")],
          displayed=[("7", at(-10))]))

case("keys-canonically-equivalent-are-distinct",
     "keys compare by code points: caf\\u00e9 and cafe\\u0301 are two keys, not duplicates, both shown, "
     "cafe\\u0301 first (e < \\u00e9) (was: cafe\\u0301 in displayed and dropped as displayed, a reason that is gone)",
     req([note("caf\u00e9", at(-10)), note("cafe\u0301", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary", shown=["cafe\u0301", "caf\u00e9"],
          displayed=[("cafe\u0301", at(-10)), ("caf\u00e9", at(-10))]))

# ---------------------------------------------------------------- ordering
case("order-newest-first",
     "the rest is ordered newest first, whatever the input order",
     req([note("mid", at(-20)), note("new", at(-5)), note("old", at(-300))]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["new", "mid", "old"],
          displayed=[("new", at(-5)), ("mid", at(-20)), ("old", at(-300))]))

case("order-equal-instants-by-key",
     "one instant written three ways is equal; ties are broken by key, ascending",
     req([note("b", "2026-11-29T11:59:00Z"), note("c", "2026-11-29T13:59:00.000+02:00"),
          note("a", "2026-11-29T11:59:00.0Z")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["a", "b", "c"],
          displayed=[("a", "2026-11-29T11:59:00.0Z"), ("b", "2026-11-29T11:59:00Z"),
                     ("c", "2026-11-29T13:59:00.000+02:00")]))

case("order-ties-by-code-point-not-canonical-order",
     "U+03AA sorts before U+2126 OHM SIGN by code point (canonical NFC order would put OHM = U+03A9 first)",
     req([note("\u2126", at(-10)), note("\u03aa", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["\u03aa", "\u2126"],
          displayed=[("\u03aa", at(-10)), ("\u2126", at(-10))]))

case("order-ties-by-code-point-not-utf16",
     "U+FF01 sorts before U+1F600 by code point (UTF-16 order would put the surrogate pair first)",
     req([note("\U0001F600", at(-10)), note("\uff01", at(-10))]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["\uff01", "\U0001F600"],
          displayed=[("\uff01", at(-10)), ("\U0001F600", at(-10))]))

case("order-ties-by-key-with-source",
     "the tie-break uses the whole key: a:2 < b:1 < c",
     req([note("1", at(-10), source="b"), note("c", at(-10)), note("2", at(-10), source="a")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["a:2", "b:1", "c"],
          displayed=[("a:2", at(-10)), ("b:1", at(-10)), ("c", at(-10))]))
