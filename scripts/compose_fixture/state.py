"""compose.json's cases of the next displayed state (compose.md section 6.2, C10)."""
from compose_fixture.build import NOW, at, case, fallback, note, req, resp

# ---------------------------------------------------------------- displayed state
FOUR = [("stale", at(-601)), ("edge", at(-600)), ("future", at(3600)), ("recent", at(-1))]
case("displayed-next-state-is-what-the-device-shows",
     "fetch ok: the next state is the shown keys under the answer's group and nothing else, whatever the request's "
     "entries were (was: fresh request entries kept beside the shown one; C10 now records the screen)",
     req([note("n", at(-30))], FOUR),
     resp("single", "Buzz", "New message", "n", shown=["n"], displayed=[("n", at(-30))]))

case("displayed-carried-over-when-the-fetch-fails",
     "fetch failed: the entries are carried over, none pruned (stale and future alike), entries without group "
     "written with group null, and the fallback entry at now, newest first (was: the stale one pruned)",
     req(displayed=FOUR, fetch="failed"),
     fallback("failed", displayed=[("future", at(3600), None), (None, NOW, "fallback"), ("recent", at(-1), None),
                                   ("edge", at(-600), None), ("stale", at(-601), None)]))

case("displayed-latest-time-wins",
     "one key twice in displayed: the later instant wins, wherever it is in the list (carried over by a failed "
     "fetch; was: a fallback empty, whose next state is now empty)",
     req([], [("a", at(-100)), ("b", at(-50)), ("a", "2026-11-29T12:59:50+01:00"), ("b", at(-60))], fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("a", "2026-11-29T12:59:50+01:00", None),
                                   ("b", at(-50), None)]))

case("displayed-equal-instants-first-written-wins",
     "one key twice at the same instant written differently: the first entry in the request is kept (carried over "
     "by a failed fetch; was: a fallback empty)",
     req([], [("a", "2026-11-29T13:59:00+02:00"), ("a", "2026-11-29T11:59:00Z"), ("b", "2026-11-29T11:59:00.000Z")],
         fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("a", "2026-11-29T13:59:00+02:00", None),
                                   ("b", "2026-11-29T11:59:00.000Z", None)]))

case("displayed-ties-by-code-point",
     "equal instants in the next state are ordered by key in code-point order (carried over by a failed fetch; "
     "was: a fallback empty)",
     req([], [("\U0001F600", at(-10)), ("z", at(-10)), ("\uff01", at(-10)), ("Z", at(-10))], fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback"), ("Z", at(-10), None), ("z", at(-10), None),
                                   ("\uff01", at(-10), None), ("\U0001F600", at(-10), None)]))

case("displayed-ties-keyed-before-group-alone-then-by-group",
     "equal instants: entries with a key before entries of a group alone, those by group in code-point order; a "
     "fallback entry already there is kept as it was and none is added",
     req(displayed=[(None, at(-10), "zeta"), (None, at(-10), "fallback"), ("k", at(-10), "t1")], fetch="timeout"),
     fallback("timeout", displayed=[("k", at(-10), "t1"), (None, at(-10), "fallback"), (None, at(-10), "zeta")]))

case("displayed-group-alone-latest-per-group",
     "two entries of the group fallback without a key: the later instant is kept, once, and no new fallback entry",
     req(displayed=[(None, at(-100), "fallback"), (None, at(-20), "fallback")], fetch="failed"),
     fallback("failed", displayed=[(None, at(-20), "fallback")]))

case("displayed-empty-answer-empties-the-state",
     "fetch ok and nothing kept: the next state is empty, whatever the entries were (everything is withdrawn)",
     req([note("1", at(-10), read=True)], [("1", at(-10), "t1"), (None, at(-5), "fallback"), ("legacy", at(-3))]),
     fallback("empty", dropped=[("1", "read")]))

# A thousand displayed entries: keys d0000..d0999, d{i} written at now - 1 - i seconds.
THOUSAND = [(f"d{i:04d}", at(-1 - i), "t1") for i in range(1000)]
case("displayed-thousand-entries-capped-at-1000",
     "1000 entries carried over by a failed fetch plus the fallback entry at now: the newest 1000 are kept (was: "
     "with a shown key, which now leaves no entry but its own)",
     req(displayed=THOUSAND, fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")] + THOUSAND[:999]))

# A thousand entries dated after now: d{i} at now + 1000 - i seconds.
FUTURE_THOUSAND = [(f"f{i:04d}", at(1000 - i), "t1") for i in range(1000)]
case("displayed-fallback-never-cut-at-the-cap",
     "1000 entries dated after now carried over by a failed fetch: the fallback entry at now sorts after all of "
     "them and still stays, in the place of the 1000th, so the next successful fetch withdraws the fallback",
     req(displayed=FUTURE_THOUSAND, fetch="failed"),
     fallback("failed", displayed=FUTURE_THOUSAND[:999] + [(None, NOW, "fallback")]))

# 60 entries, the oldest 20 stale.
SIXTY = [(f"e{i:02d}", at(-1 - i), "t1") for i in range(60)]
case("displayed-keeps-stale-entries-when-the-fetch-fails",
     "60 entries one second apart, oldest first, maxAgeSeconds 40, fetch failed: all 60 stay, newest first, after "
     "the fallback entry (was: the 20 stale ones pruned; an entry now leaves when its notification leaves the device)",
     req([], SIXTY[::-1], maxAgeSeconds=40, fetch="failed"),
     fallback("failed", displayed=[(None, NOW, "fallback")] + SIXTY))

case("displayed-shown-entry-echoes-raw-timestamp",
     "a shown notification enters the next state with its timestamp exactly as written; the entry 0 leaves it",
     req([note("1", "2026-11-29T06:59:00.120-05:00")], [("0", "2026-11-29T11:59:00.12Z", "1")]),
     resp("single", "Buzz", "New message", "1", shown=["1"],
          displayed=[("1", "2026-11-29T06:59:00.120-05:00")]))

case("displayed-group-of-a-hashed-thread",
     "the next state records the group key of C14: a thread that is not a plain group key is recorded as its digest",
     req([note("1", at(-10), thread="caf\u00e9")]),
     resp("single", "Buzz", "New message", "caf\u00e9", shown=["1"], displayed=[("1", at(-10))]))
