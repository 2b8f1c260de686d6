"""compose.json's cases of a single notification, a bundle and a summary
(compose.md section 6.1)."""
from compose_fixture.build import ELLIPSIS, LONG_APP, at, case, note, req, resp

# ---------------------------------------------------------------- single
case("single-message-name-and-thread-title",
     "a message: title = sender name, subtitle = thread title, body = the /body rendering of text",
     req([note("1", at(-10), name="Ana", thread="t1", threadTitle="Design review",
               text="Hello **world**, see [the docs](https://x.io)", url="buzz://t1/1")]),
     resp("single", "Ana", "Hello world, see the docs", "t1", subtitle="Design review", url="buzz://t1/1",
          shown=["1"], displayed=[("1", at(-10))]))

case("single-reply-without-name-uses-thread-title",
     "no sender name: title = thread title and subtitle null",
     req([note("1", at(-10), type="reply", sender_id="ana", thread="t1", threadTitle="Design review", text="ok")]),
     resp("single", "Design review", "ok", "t1", shown=["1"], displayed=[("1", at(-10))]))

case("single-mention-without-name-or-thread-title-uses-app",
     "no sender name and no thread title: title = app",
     req([note("1", at(-10), type="mention", text="`@ana` look")], app="Wikipedia"),
     resp("single", "Wikipedia", "@ana look", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-name-counts-as-absent",
     "a name of only whitespace (NBSP, em space) is absent: the thread title is the title, subtitle null",
     req([note("1", at(-10), name=" \u00a0\u2003 ", thread="t1", threadTitle="Design", text="hi")]),
     resp("single", "Design", "hi", "t1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-thread-title-with-name",
     "a blank thread title is absent: the sender name is the title and the subtitle is null",
     req([note("1", at(-10), name="Ana", threadTitle="\t\n", text="hi")]),
     resp("single", "Ana", "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-blank-thread-title-without-name",
     "no name and a blank thread title: the app is the title",
     req([note("2", at(-10), source="other", threadTitle=" ", text="hey")]),
     resp("single", "Buzz", "hey", "other:2", shown=["other:2"], displayed=[("other:2", at(-10))]))

case("single-names-and-titles-are-normalised",
     "every run of White_Space scalars becomes one space and the ends are trimmed",
     req([note("1", at(-10), name="\tAna \u00a0\u2003 Lima\n", threadTitle="  Team\r\n\u2028chat  ",
               thread="t1", text="hi")]),
     resp("single", "Ana Lima", "hi", "t1", subtitle="Team chat", shown=["1"], displayed=[("1", at(-10))]))

case("single-zero-width-space-is-not-whitespace",
     "U+200B is not White_Space: a name of it is kept as is",
     req([note("1", at(-10), name="\u200b", text="hi")]),
     resp("single", "\u200b", "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-long-name-and-thread-title-are-capped",
     "title and subtitle are capped at 256 units by the body cap rule, after normalisation",
     req([note("1", at(-10), name="n" * 150 + "   " + "m" * 150, threadTitle="t" * 256 + " ", text="hi")]),
     resp("single", "n" * 150 + " " + "m" * 104 + ELLIPSIS, "hi", "1", subtitle="t" * 256,
          shown=["1"], displayed=[("1", at(-10))]))

case("single-long-name-cap-drops-trailing-space",
     "the cap removes a space left at the end of the kept prefix before adding the ellipsis",
     req([note("1", at(-10), name="n" * 254 + " xyz", text="hi")]),
     resp("single", "n" * 254 + ELLIPSIS, "hi", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-renders-empty-uses-default-text",
     "a text that renders empty falls back to the rendering of defaultText",
     req([note("1", at(-10), name="Ana", text="![](img.png)", defaultText="Ana sent a **photo**")]),
     resp("single", "Ana", "Ana sent a photo", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-renders-empty-without-default-text",
     "a text that renders empty and no defaultText: New message",
     req([note("1", at(-10), name="Ana", text="![](img.png)")]),
     resp("single", "Ana", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-default-text-renders-empty",
     "no text and a defaultText that renders empty: New message",
     req([note("1", at(-10), defaultText="  \n  ")]),
     resp("single", "Buzz", "New message", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-message-empty-text",
     "an empty text renders empty: the defaultText is used",
     req([note("1", at(-10), text="", defaultText="Ana wrote")]),
     resp("single", "Buzz", "Ana wrote", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-non-message-uses-default-text",
     "another type: title = app, subtitle null, text ignored, body = rendered defaultText",
     req([note("1", at(-10), type="thank", name="Ana", thread="p1", threadTitle="Page",
               text="ignored **text**", defaultText="Ana thanked you for your edit on *Page*.", url="wiki://p1")]),
     resp("single", "Buzz", "Ana thanked you for your edit on *Page*.", "p1", url="wiki://p1",
          shown=["1"], displayed=[("1", at(-10))]))

case("single-non-message-without-default-text",
     "another type without defaultText: You have a new notification.",
     req([note("1", at(-10), type="edit-revert", text="ignored")], app="Wikipedia"),
     resp("single", "Wikipedia", "You have a new notification.", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-type-is-case-sensitive",
     "Message (capital M) is not a message type",
     req([note("1", at(-10), type="Message", name="Ana", text="hi")]),
     resp("single", "Buzz", "You have a new notification.", "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-empty-thread-uses-key",
     "threadIdentifier is the thread when non-empty, else the key",
     req([note("9", at(-10), source="wiki", thread="", text="hi")]),
     resp("single", "Buzz", "hi", "wiki:9", shown=["wiki:9"], displayed=[("wiki:9", at(-10))]))

case("single-blank-thread-is-an-identifier",
     "a thread of one space is non-empty: it is the threadIdentifier as is",
     req([note("9", at(-10), thread=" ", text="hi")]),
     resp("single", "Buzz", "hi", " ", shown=["9"], displayed=[("9", at(-10))]))

case("single-body-capped-at-256",
     "a 300-unit text gets the default cap: 255 units and an ellipsis",
     req([note("1", at(-10), text="x" * 300)]),
     resp("single", "Buzz", "x" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-with-larger-max-units",
     "maxUnits 300 keeps a 300-unit text whole",
     req([note("1", at(-10), text="x" * 300)], maxUnits=300),
     resp("single", "Buzz", "x" * 300, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-input-cut",
     "a 5000-unit text is cut at 4096 units and capped: 255 units and an ellipsis",
     req([note("1", at(-10), text="y" * 5000)]),
     resp("single", "Buzz", "y" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-body-blank-but-cut-is-an-ellipsis",
     "a text cut at 4096 units that renders to nothing has the body \u2026, which is not empty: defaultText unused",
     req([note("1", at(-10), text=" " * 5000, defaultText="unused")]),
     resp("single", "Buzz", ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

case("single-default-text-capped",
     "defaultText is rendered with the same cap",
     req([note("1", at(-10), type="thank", defaultText="z" * 400)]),
     resp("single", "Buzz", "z" * 255 + ELLIPSIS, "1", shown=["1"], displayed=[("1", at(-10))]))

# ---------------------------------------------------------------- bundle
def thread_msgs(specs, thread="t1", **common):
    """specs: (id, seconds, name or None, text or None) newest-first is NOT assumed."""
    out = []
    for id, seconds, name, text in specs:
        fields = dict(common)
        fields["thread"] = thread
        if name is not None:
            fields["name"] = name
        if text is not None:
            fields["text"] = text
        out.append(note(id, at(seconds), **fields))
    return out


case("bundle-two-messages-two-names",
     "two messages in one thread: title = thread title, subtitle = A and B, body = count and the newest preview",
     req(thread_msgs([("1", -60, "Ben", "older"), ("2", -10, "Ana", "Hello **world**")], threadTitle="Design")),
     resp("bundle", "Design", "2 new messages\nAna: Hello world", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-60))]))

case("bundle-one-name",
     "the same sender twice: the subtitle is that one name",
     req(thread_msgs([("1", -60, "Ana", "a"), ("2", -10, "Ana", "b")], threadTitle="Design")),
     resp("bundle", "Design", "2 new messages\nAna: b", "t1", subtitle="Ana",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-60))]))

case("bundle-three-names",
     "three distinct names: A, B and C, newest first",
     req(thread_msgs([("1", -30, "Cy", "c"), ("2", -20, "Ben", "b"), ("3", -10, "Ana", "a")])),
     resp("bundle", "Buzz", "3 new messages\nAna: a", "t1", subtitle="Ana, Ben and Cy",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-four-names",
     "four distinct names: A, B and 2 others",
     req(thread_msgs([("1", -40, "Dee", "d"), ("2", -30, "Cy", "c"), ("3", -20, "Ben", "b"), ("4", -10, "Ana", "a")])),
     resp("bundle", "Buzz", "4 new messages\nAna: a", "t1", subtitle="Ana, Ben and 2 others",
          shown=["4", "3", "2", "1"],
          displayed=[("4", at(-10)), ("3", at(-20)), ("2", at(-30)), ("1", at(-40))]))

case("bundle-names-distinct-in-newest-first-order",
     "six messages, five distinct names after repeats (order of first appearance, newest first): A, B and 3 others",
     req(thread_msgs([("1", -60, "Eve", "e"), ("2", -50, "Dee", "d"), ("3", -40, "Ana", "a2"),
                      ("4", -30, "Cy", "c"), ("5", -20, "Ben", "b"), ("6", -10, "Ana", "a1")])),
     resp("bundle", "Buzz", "6 new messages\nAna: a1", "t1", subtitle="Ana, Ben and 3 others",
          shown=["6", "5", "4", "3", "2", "1"],
          displayed=[("6", at(-10)), ("5", at(-20)), ("4", at(-30)), ("3", at(-40)), ("2", at(-50)), ("1", at(-60))]))

case("bundle-names-distinct-after-normalisation",
     "names are compared after normalisation; blank names are absent",
     req(thread_msgs([("1", -30, "Ana Lima", "x"), ("2", -20, " \u3000", "y"), ("3", -10, "Ana\t\tLima ", "z")])),
     resp("bundle", "Buzz", "3 new messages\nAna Lima: z", "t1", subtitle="Ana Lima",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-without-names",
     "no sender names: subtitle null and the preview has no Name: prefix",
     req(thread_msgs([("1", -20, None, "first"), ("2", -10, None, "second")])),
     resp("bundle", "Buzz", "2 new messages\nsecond", "t1",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-without-name",
     "the newest has no name: no prefix, though an older sender is listed in the subtitle",
     req(thread_msgs([("1", -20, "Ben", "first"), ("2", -10, "  ", "second")])),
     resp("bundle", "Buzz", "2 new messages\nsecond", "t1", subtitle="Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-title-is-first-non-empty-thread-title-newest-first",
     "the newest has no thread title and the next a blank one: the third's title is used",
     req([note("1", at(-30), thread="t1", threadTitle="Older title"),
          note("2", at(-20), thread="t1", threadTitle="Design  chat"),
          note("3", at(-15), thread="t1", threadTitle=" \n "),
          note("4", at(-10), thread="t1", name="Ana", text="hi")]),
     resp("bundle", "Design chat", "4 new messages\nAna: hi", "t1", subtitle="Ana",
          shown=["4", "3", "2", "1"],
          displayed=[("4", at(-10)), ("3", at(-15)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-newest-text-renders-empty",
     "the newest's text renders empty: the body is the count alone",
     req(thread_msgs([("1", -20, "Ben", "older text"), ("2", -10, "Ana", "![](photo.png)")])),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-without-text",
     "the newest has no text: the body is the count alone (defaultText is not used in a bundle)",
     req([note("1", at(-20), thread="t1", name="Ben", text="older text"),
          note("2", at(-10), thread="t1", name="Ana", defaultText="Ana wrote")]),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-cut-by-max-units",
     "count, name and a 300-unit preview are capped as one body: 255 units and an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "x" * 300)])),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "x" * 235 + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-fits-a-larger-cap",
     "with maxUnits 320 the 320-unit body is whole",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "x" * 300)]), maxUnits=320),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "x" * 300, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-input-cut-ends-in-ellipsis",
     "a text cut at 4096 units whose rendering is short still ends the bundle body with an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "hi" + " " * 5000)])),
     resp("bundle", "Buzz", "2 new messages\nAna: hi" + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-input-cut-at-largest-cap",
     "maxUnits 4096: the 20-unit header plus 4096 cut units are capped to 4095 units and an ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", "y" * 5000)]), maxUnits=4096),
     resp("bundle", "Buzz", "2 new messages\nAna: " + "y" * 4075 + ELLIPSIS, "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-preview-blank-after-input-cut-is-left-out",
     "the newest's text renders to nothing before the cap even though it was cut: no preview, so no ellipsis",
     req(thread_msgs([("1", -20, "Ben", "b"), ("2", -10, "Ana", " " * 5000)])),
     resp("bundle", "Buzz", "2 new messages", "t1", subtitle="Ana and Ben",
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-long-names",
     "the subtitle is capped at 256 as a whole; the name in the body is normalised but not capped on its own",
     req(thread_msgs([("1", -20, "b" * 200, "older"), ("2", -10, "a" * 100 + "\n\n" + "a" * 100, "Hi")])),
     resp("bundle", "Buzz", "2 new messages\n" + "a" * 100 + " " + "a" * 100 + ": Hi", "t1",
          subtitle="a" * 100 + " " + "a" * 100 + " and " + "b" * 49 + ELLIPSIS,
          shown=["2", "1"], displayed=[("2", at(-10)), ("1", at(-20))]))

case("bundle-newest-by-key-on-equal-times",
     "equal times: the smaller key is the newest, so its text is the preview and its url the url",
     req([note("b", at(-10), thread="t1", name="Ben", text="from b", url="u://b"),
          note("a", at(-10), thread="t1", name="Ana", text="from a", url="u://a")]),
     resp("bundle", "Buzz", "2 new messages\nAna: from a", "t1", subtitle="Ana and Ben", url="u://a",
          shown=["a", "b"], displayed=[("a", at(-10)), ("b", at(-10))]))

case("bundle-of-message-mention-and-reply",
     "message, mention and reply are all message types; the url is the newest's (null when it has none)",
     req([note("1", at(-30), type="message", thread="t1", name="Cy", url="u://1"),
          note("2", at(-20), type="mention", thread="t1", name="Ben", url="u://2"),
          note("3", at(-10), type="reply", thread="t1", name="Ana", text="> quoted\nok")]),
     resp("bundle", "Buzz", "3 new messages\nAna: > quoted\nok", "t1", subtitle="Ana, Ben and Cy",
          shown=["3", "2", "1"], displayed=[("3", at(-10)), ("2", at(-20)), ("1", at(-30))]))

case("bundle-after-drops",
     "only the notifications left count: two of four remain, in one thread",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"),
          note("2", at(-700), thread="t1", name="Old", text="o"),
          note("3", at(-20), thread="t1", name="Ben", text="b"),
          note("4", at(-5), thread="t1", sender_id="me", name="Me", text="m")], recipient="me"),
     resp("bundle", "Buzz", "2 new messages\nAna: a", "t1", subtitle="Ana and Ben",
          shown=["1", "3"], dropped=[("2", "stale"), ("4", "own")],
          displayed=[("1", at(-10)), ("3", at(-20))]))

# ---------------------------------------------------------------- summary
case("summary-mixed-threads",
     "messages in two threads: summary",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"), note("2", at(-20), thread="t2", name="Ben", text="b")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-non-message-in-thread",
     "one thread but one notification is not a message type: summary",
     req([note("1", at(-10), thread="t1", name="Ana", text="a"), note("2", at(-20), type="thank", thread="t1")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-messages-without-thread",
     "messages with empty or missing threads are not bundled",
     req([note("1", at(-10), thread="", text="a"), note("2", at(-20), thread="", text="b"), note("3", at(-30), text="c")]),
     resp("summary", "New activity on Buzz", "3 new notifications", "summary",
          shown=["1", "2", "3"], displayed=[("1", at(-10)), ("2", at(-20)), ("3", at(-30))]))

case("summary-threads-compared-by-code-point",
     "threads caf\\u00e9 and cafe\\u0301 are different threads: summary",
     req([note("1", at(-10), thread="caf\u00e9", text="a"), note("2", at(-20), thread="cafe\u0301", text="b")]),
     resp("summary", "New activity on Buzz", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-custom-app",
     "the summary title names the request's app",
     req([note("1", at(-10), type="thank"), note("2", at(-20), type="edit-revert")], app="Wikipedia"),
     resp("summary", "New activity on Wikipedia", "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))

case("summary-long-app-title-capped",
     "New activity on + a 300-unit app is capped at 256 units",
     req([note("1", at(-10), type="thank"), note("2", at(-20), type="thank")], app=LONG_APP),
     resp("summary", "New activity on " + "a" * 239 + ELLIPSIS, "2 new notifications", "summary",
          shown=["1", "2"], displayed=[("1", at(-10)), ("2", at(-20))]))
