"""compose.json's cases of the languages (compose.md, Part II): each catalog's texts,
choosing the catalog, isolation and caps with isolates."""
import json

from compose_fixture.build import (ELLIPSIS, FSI, PDI, at, bundle_request, bundle_response, case, fallback, non_messages,
                                   note, req, resp, summary_response)
from compose_fixture.l10n_tours import TOUR, TOURS, senders

# Every text below is written out by hand from the catalogs l10n/<tag>.json
# and the rules of compose.md sections 8 to 13: nothing formats messages here.

for tour in TOURS:
    tag = tour["tag"]
    slug = "l10n-" + tag.lower()
    names = tour["names"]
    case(f"{slug}-fallback", f"{tag}: a fallback's body is fallback.body with the app; its title is the app",
         req(fetch="failed", locale=tag), fallback("failed", body=tour["fallback"], locale=tag))
    case(f"{slug}-single-message-without-text", f"{tag}: a message without a body is message.fallback",
         req([note("m", at(-1), name=names[0])], locale=tag),
         resp("single", names[0], tour["message"], "m", shown=["m"], displayed=[("m", at(-1))], locale=tag))
    case(f"{slug}-single-non-message", f"{tag}: a non-message without defaultText is notification.fallback",
         req([note("n", at(-1), type="like")], locale=tag),
         resp("single", "Buzz", tour["notification"], "n", shown=["n"], displayed=[("n", at(-1))], locale=tag))
    title, counts = tour["summary"]
    for count, body in counts:
        case(f"{slug}-summary-{count}", f"{tag}: summary.title, and summary.count for {count}",
             req(non_messages(count), locale=tag), summary_response(title, body, count, tag))
    header, line, subtitle = tour["two"]
    case(f"{slug}-bundle-two-names", f"{tag}: bundle.count for 2, bundle.preview and senders.two",
         bundle_request(names[:2], tour["preview"], locale=tag),
         bundle_response(header + "\n" + line, subtitle, 2, tag))
    header, subtitle = tour["three"]
    case(f"{slug}-bundle-three-names", f"{tag}: bundle.count for 3 and senders.three; no text, so no preview",
         bundle_request(names[:3], locale=tag), bundle_response(header, subtitle, 3, tag))
    for count, header, subtitle in tour["more"]:
        case(f"{slug}-bundle-{count}-names", f"{tag}: bundle.count for {count} and senders.more with {count - 2} others",
             bundle_request(senders(tour, count), locale=tag), bundle_response(header, subtitle, count, tag))

RU = TOUR["ru"]
case("l10n-ru-bundle-21-messages-one-sender",
     "ru: 21 messages is the one branch of bundle.count; a single sender is the subtitle as is",
     bundle_request([RU["names"][0]] * 21, RU["preview"], locale="ru"),
     bundle_response("21 \u043d\u043e\u0432\u043e\u0435 \u0441\u043e\u043e\u0431\u0449\u0435\u043d\u0438\u0435\n"
                     + RU["two"][1], RU["names"][0], 21, "ru"))

# ---------------------------------------------------------------- choosing the catalog (compose.md section 10)
NEGOTIATION = [
    (None, "en", "null is the default locale"),
    ("", "en", "the empty string is the default locale"),
    ("en-GB", "en", "rule 3: the parent en_001 has no catalog"),
    ("en-AU", "en", "rule 3 through en_001"),
    ("pt-BR", "pt", "rule 1: pt maximises to pt-Latn-BR"),
    ("pt_PT", "pt-PT", "an underscore reads as a hyphen; rule 1"),
    ("pt-AO", "pt-PT", "rule 2: the CLDR parent of pt_AO is pt_PT"),
    ("es-MX", "es", "rule 3: the parent es_419 has no catalog"),
    ("zh-TW", "zh-Hant", "rule 1: zh-Hant maximises to zh-Hant-TW"),
    ("zh-HK", "zh-Hant", "rule 3: zh-HK is zh-Hant-HK"),
    ("zh-MO", "zh-Hant", "rule 3: zh-MO is zh-Hant-MO (its parent zh_Hant_HK has no catalog)"),
    ("zh", "zh-Hans", "rule 1: zh maximises to zh-Hans-CN"),
    ("zh-CN", "zh-Hans", "rule 1"),
    ("zh-SG", "zh-Hans", "rule 3: zh-SG is zh-Hans-SG"),
    ("ZH-hant-tw", "zh-Hant", "subtags are case-insensitive"),
    ("de-CH-1996", "de", "the variant is ignored; rule 3"),
    ("en-u-ca-buddhist", "en", "an extension is ignored"),
    ("iw", "he", "the alias iw is he"),
    ("und", "en", "und maximises to en-Latn-US"),
    ("sr", "en", "well-formed, but no catalog fits: the default"),
    ("xx-YY", "en", "unknown language: the default"),
]
for locale, tag, why in NEGOTIATION:
    slug = "absent" if locale is None else (locale or "empty").lower().replace("_", "-")
    case(f"l10n-choose-{'null' if locale is None else slug}", f"locale {json.dumps(locale)} -> catalog {tag}: {why}",
         req(fetch="failed", locale=locale), fallback("failed", body=TOUR[tag]["fallback"], locale=tag))

# ---------------------------------------------------------------- isolation (compose.md section 12.3)
MUHAMMAD = "\u0645\u062d\u0645\u062f"
WIKI_AR = "\u0648\u064a\u0643\u064a"
SARA = TOUR["ar"]["names"][0]
AR_TWO = TOUR["ar"]["two"][0]
case("l10n-en-rtl-name-isolated-in-list-and-preview",
     "ltr catalog: an Arabic name filled into senders.two and bundle.preview is wrapped in FSI/PDI; Ana is not",
     bundle_request([MUHAMMAD, "Ana"], "hi"),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": hi", FSI + MUHAMMAD + PDI + " and Ana", 2, "en"))
case("l10n-en-single-rtl-name-not-isolated",
     "a name or thread title used as a title or subtitle is not filled into a message: never wrapped",
     req([note("1", at(-1), name=MUHAMMAD, threadTitle="\u05e6\u05d5\u05d5\u05ea", text="hi")]),
     resp("single", MUHAMMAD, "hi", "1", subtitle="\u05e6\u05d5\u05d5\u05ea", shown=["1"], displayed=[("1", at(-1))]))
case("l10n-en-bundle-one-rtl-sender",
     "one distinct name is the subtitle as is (not a message), but the same name in bundle.preview is wrapped",
     bundle_request([MUHAMMAD, MUHAMMAD], "hi"),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": hi", MUHAMMAD, 2, "en"))
case("l10n-en-rtl-text-not-isolated",
     "the rendered text filled into bundle.preview is never wrapped, whatever its direction",
     bundle_request(["Ana", "Ben"], "\u0645\u0631\u062d\u0628\u0627"),
     bundle_response("2 new messages\nAna: \u0645\u0631\u062d\u0628\u0627", "Ana and Ben", 2, "en"))
case("l10n-en-summary-rtl-app",
     "the app filled into summary.title is wrapped when it holds an R or AL character",
     req(non_messages(2), app=WIKI_AR),
     summary_response("New activity on " + FSI + WIKI_AR + PDI, "2 new notifications", 2, "en"))
case("l10n-en-fallback-rtl-app",
     "a fallback's title is the app itself; the app in fallback.body is wrapped",
     req(fetch="timeout", app=WIKI_AR),
     fallback("timeout", app=WIKI_AR, body="There might be new activity on " + FSI + WIKI_AR + PDI + "."))
case("l10n-en-mixed-mark-and-neutral-names",
     "a name with any R/AL character is wrapped whole, RLM counts as strong R, digits are neutral and stay bare",
     bundle_request(["Ana " + MUHAMMAD, "\u200fBo", "123"]),
     bundle_response("3 new messages", FSI + "Ana " + MUHAMMAD + PDI + ", " + FSI + "\u200fBo" + PDI + " and 123", 3, "en"))
case("l10n-de-hebrew-name-isolated",
     "another ltr catalog: a Hebrew name in senders.two is wrapped",
     bundle_request(["Ana", "\u05d3\u05e0\u05d4"], locale="de"),
     bundle_response("2 neue Nachrichten", "Ana und " + FSI + "\u05d3\u05e0\u05d4" + PDI, 2, "de"))
case("l10n-ar-latin-name-isolated",
     "rtl catalog: a Latin name (Bidi_Class L) is wrapped in senders.two and bundle.preview; the Arabic one is not",
     bundle_request(["Ana", SARA], TOUR["ar"]["preview"], locale="ar"),
     bundle_response(AR_TWO + "\n" + FSI + "Ana" + PDI + ": " + TOUR["ar"]["preview"],
                     FSI + "Ana" + PDI + " \u0648" + SARA, 2, "ar"))
case("l10n-ar-arabic-app-not-isolated",
     "rtl catalog: an Arabic app is of the catalog's direction and stays bare",
     req(non_messages(2), app=WIKI_AR, locale="ar"),
     summary_response("\u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + WIKI_AR,
                      "\u0625\u0634\u0639\u0627\u0631\u0627\u0646 \u062c\u062f\u064a\u062f\u0627\u0646", 2, "ar"))
case("l10n-ar-neutral-name-not-isolated",
     "rtl catalog: a name of digits only has no strong character and stays bare",
     bundle_request(["123", SARA], locale="ar"),
     bundle_response(AR_TWO, "123 \u0648" + SARA, 2, "ar"))
case("l10n-he-lrm-and-latin-name-isolated",
     "rtl catalog: LRM counts as strong L, so a Hebrew name after an LRM is wrapped, and so is Bo",
     bundle_request(["\u200e\u05d3\u05e0\u05d4", "Bo"], locale="he"),
     bundle_response(TOUR["he"]["two"][0], FSI + "\u200e\u05d3\u05e0\u05d4" + PDI + " \u05d5\u05be" + FSI + "Bo" + PDI,
                     2, "he"))

# ---------------------------------------------------------------- caps with isolates (compose.md section 12.3, L15)
MIM = "\u0645"
case("l10n-en-summary-title-exactly-256-units-with-isolates",
     "New activity on (16) + FSI + 238 letters + PDI is exactly 256 units: kept whole",
     req(non_messages(2), app=MIM * 238),
     summary_response("New activity on " + FSI + MIM * 238 + PDI, "2 new notifications", 2, "en"))
case("l10n-en-summary-title-cut-leaves-isolate-open",
     "one letter more is 257 units: the cap keeps 255 (the FSI among them), drops the PDI and adds the ellipsis",
     req(non_messages(2), app=MIM * 239),
     summary_response("New activity on " + FSI + MIM * 238 + ELLIPSIS, "2 new notifications", 2, "en"))
case("l10n-en-fallback-body-cut-inside-isolate",
     "a 300-letter Arabic app: the title is the app capped; the body cap cuts inside the isolate",
     req(fetch="failed", app=MIM * 300),
     fallback("failed", title=MIM * 255 + ELLIPSIS, body="There might be new activity on " + FSI + MIM * 223 + ELLIPSIS))
case("l10n-en-subtitle-cut-inside-isolate",
     "senders.two with a 260-letter Arabic name: the subtitle is capped at 256 units, the isolate left open",
     bundle_request(["Ana", MIM * 260]),
     bundle_response("2 new messages", "Ana and " + FSI + MIM * 246 + ELLIPSIS, 2, "en"))
case("l10n-en-bundle-body-cap-counts-isolates",
     "the isolates around the name in bundle.preview count as units of the body cap",
     bundle_request([MUHAMMAD, "Ana"], "x" * 300),
     bundle_response("2 new messages\n" + FSI + MUHAMMAD + PDI + ": " + "x" * 232 + ELLIPSIS,
                     FSI + MUHAMMAD + PDI + " and Ana", 2, "en"))
case("l10n-ar-summary-title-cut-in-isolated-app",
     "rtl catalog: a 300-letter Latin app is wrapped and the title cap cuts inside the isolate",
     req(non_messages(2), app="a" * 300, locale="ar"),
     summary_response("\u0646\u0634\u0627\u0637 \u062c\u062f\u064a\u062f \u0641\u064a " + FSI + "a" * 241 + ELLIPSIS,
                      "\u0625\u0634\u0639\u0627\u0631\u0627\u0646 \u062c\u062f\u064a\u062f\u0627\u0646", 2, "ar"))
case("l10n-ar-bundle-body-cap-counts-isolates",
     "rtl catalog: header (16 units with the line break), the wrapped Latin name and a 300-unit text, capped at 256",
     bundle_request(["Ana", SARA], "x" * 300, locale="ar"),
     bundle_response(AR_TWO + "\n" + FSI + "Ana" + PDI + ": " + "x" * 232 + ELLIPSIS,
                     FSI + "Ana" + PDI + " \u0648" + SARA, 2, "ar"))
