"""What the playground checks send and expect: the servers' settings, the cards, the
catalogs, and the compose requests pasted into the page."""

import json
import pathlib

TOKEN = "browser-Token_42"
APP_NAME = "Ünïcorn Chat"  # the open server's --app-name
# The lock screens: each collapsed card, then each expanded one.
CARDS = ["ios-card", "ios-expanded", "android-card", "android-expanded"]
L10N = pathlib.Path(__file__).resolve().parents[2] / "l10n"

LOCALES = ["en", "ar", "de", "es", "fr", "he", "hi", "it", "ja", "ko", "pl", "pt", "pt-PT", "ru", "tr", "uk",
           "zh-Hans", "zh-Hant"]

SINGLE = {
    "now": "2026-11-29T12:00:00Z",
    "notifications": [{
        "id": "42", "source": "chat", "type": "message", "timestamp": "2026-11-29T11:59:30Z",
        "thread": "general", "threadTitle": "General", "sender": {"id": "u7", "name": "Ana"},
        "text": "Lunch at **noon**?", "url": "https://chat.example/m/42",
    }],
}


# Two messages in thread "Release" from Ben and Cleo: in ar and he the title is a
# Latin word (a left-to-right line), the subtitle starts with an isolated Latin
# name (U+2068 Cleo U+2069), which the first strong character skips (a
# right-to-left line), and the body's last line is U+2068 Cleo U+2069: Ship it
# (left to right). In en, with a Hebrew thread title (HEBREW_TITLE), the title
# is a right-to-left line.
BIDI = {
    "now": "2026-11-29T12:00:00Z",
    "notifications": [
        {"id": "1", "type": "message", "timestamp": "2026-11-29T11:58:00Z", "thread": "t1", "threadTitle": "Release",
         "sender": {"id": "u2", "name": "Ben"}, "text": "Ready?"},
        {"id": "2", "type": "reply", "timestamp": "2026-11-29T11:59:00Z", "thread": "t1",
         "sender": {"id": "u3", "name": "Cleo"}, "text": "Ship it"},
    ],
}
HEBREW_TITLE = "גרסה v2"
LONG_SUBTITLE = "Quarterly planning for the infrastructure migration and the on-call rotation"
# Arabic with a Latin word inside: a right-to-left line, cut at its logical end,
# the left, so the Arabic's last letters are the ones cut, not its first ones.
ARABIC_SUBTITLE = "خطة الإصدار v2 والنشر للفريق بأكمله في هذا الأسبوع قبل العطلة"


def single_with_subtitle(subtitle):
    request = json.loads(json.dumps(SINGLE))
    request["notifications"][0]["threadTitle"] = subtitle
    return request
