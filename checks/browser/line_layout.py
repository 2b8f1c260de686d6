"""How the playground's cards lay out each line of a notification, checked as a phone lays it out.

A card's chrome (icon, app name, time) takes the answer's `direction`; each paragraph of its title,
subtitle and body is laid out in its own order, from its first strong character outside isolates:
  - Android: StaticLayout lays out each paragraph with the TextView's TextDirectionHeuristic, by
    default TextDirectionHeuristics.FIRSTSTRONG_LTR ("the first strong directional character
    determines the paragraph direction; if there is no strong directional character, the paragraph
    direction is left-to-right"), and aligns it by Layout.Alignment.ALIGN_NORMAL, the paragraph's
    own start (https://developer.android.com/reference/android/text/TextDirectionHeuristics,
    https://developer.android.com/reference/android/text/Layout.Alignment);
  - iOS: text of natural writing direction takes each paragraph's direction by UAX #9 rules P2 and
    P3 (https://www.unicode.org/reports/tr9/#The_Paragraph_Level: the first character of type L, AL
    or R, skipping characters between an isolate initiator and its matching PDI), while
    NSTextAlignment.natural aligns by the interface's language ("the default alignment associated
    with the current localization of the app", https://developer.apple.com/documentation/uikit/nstextalignment/natural),
    here the answer's direction.

The browser is asked where each character of a shown paragraph is drawn; the same paragraph is drawn
again in a hidden copy of the line, once left to right and once right to left. The paragraph's order
is the direction whose copy puts every character at the same offsets.
"""

import unicodedata

ISOLATE_INITIATORS = ("LRI", "RLI", "FSI")


def first_strong_direction(paragraph):
    """UAX #9 P2-P3: "rtl" when the first strong character outside isolates is R or AL, "ltr" when it
    is L, None without one."""
    depth = 0
    for character in paragraph:
        kind = unicodedata.bidirectional(character)
        if kind in ISOLATE_INITIATORS:
            depth += 1
        elif kind == "PDI":
            depth = max(depth - 1, 0)
        elif depth == 0 and kind == "L":
            return "ltr"
        elif depth == 0 and kind in ("R", "AL"):
            return "rtl"
    return None


# The shown lines: [card, class of the line, its text, whether it is in the card's head].
LINES_SCRIPT = """
return arguments[0].flatMap((id) => Array.from(document.querySelectorAll(
    '#' + id + ' .card-title, #' + id + ' .card-subtitle, #' + id + ' .card-body'))
  .filter((line) => !line.hidden && line.textContent !== '')
  .map((line) => [id, line.className, line.textContent, line.parentElement.classList.contains('card-head')]));
"""

# Per paragraph [card, class, index among the line's paragraphs, text]: whether it is drawn as its
# copy left to right is, as its copy right to left is, whether those two differ, and the side of the
# line's content box it touches ("left", "right", or "neither").
LAYOUT_SCRIPT = """
const rects = (element, from, to) => {
  const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
  const found = [];
  let offset = 0;
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (let i = Math.max(from, offset); i < Math.min(to, offset + node.data.length); i++) {
      const range = document.createRange();
      range.setStart(node, i - offset);
      range.setEnd(node, i - offset + 1);
      const rect = range.getBoundingClientRect();
      found.push(rect.width > 0 ? [rect.left, rect.right] : null);
    }
    offset += node.data.length;
  }
  return found;
};
const offsets = (found) => {
  const left = Math.min(...found.filter((r) => r).map((r) => r[0]));
  return found.map((r) => r && r[0] - left);
};
const same = (a, b) => a.length === b.length
  && a.every((x, k) => (x === null) === (b[k] === null) && (x === null || Math.abs(x - b[k]) <= 0.5));
return arguments[0].map(([card, className, index, text]) => {
  const line = document.querySelector('#' + card + ' .' + className.trim().split(/ +/).join('.'));
  let start = 0;
  for (let k = 0; k < index; k++) start = line.textContent.indexOf('\\n', start) + 1;
  const shown = rects(line, start, start + text.length);
  const copy = (direction) => {
    const probe = line.cloneNode(false);
    probe.style.cssText = 'position: absolute; visibility: hidden; display: block; white-space: pre; '
      + 'unicode-bidi: isolate; width: auto; max-height: none; overflow: visible; -webkit-line-clamp: none';
    probe.dir = direction;
    probe.textContent = text;
    line.parentElement.append(probe);
    const drawn = offsets(rects(probe, 0, text.length));
    probe.remove();
    return drawn;
  };
  const ltr = copy('ltr');
  const rtl = copy('rtl');
  const style = getComputedStyle(line);
  const box = line.getBoundingClientRect();
  const inner = [box.left + parseFloat(style.borderLeftWidth) + parseFloat(style.paddingLeft),
                 box.right - parseFloat(style.borderRightWidth) - parseFloat(style.paddingRight)];
  const drawn = shown.filter((r) => r);
  const left = Math.min(...drawn.map((r) => r[0]));
  const right = Math.max(...drawn.map((r) => r[1]));
  const side = Math.abs(left - inner[0]) <= 1 ? 'left' : Math.abs(right - inner[1]) <= 1 ? 'right' : 'neither';
  return [same(offsets(shown), ltr), same(offsets(shown), rtl), !same(ltr, rtl), side];
});
"""

SIDE = {"ltr": "left", "rtl": "right"}


def check_lines(report, driver, cards, label, interface):
    """Checks every paragraph of the cards' titles, subtitles and bodies: drawn in its own first strong
    direction; aligned to its own start on Android, to the interface's (`interface`) on iOS. Returns
    how many paragraphs' own direction differs from the interface's."""
    paragraphs = []
    for card, class_name, text, in_head in driver.execute_script(LINES_SCRIPT, cards):
        for index, paragraph in enumerate(text.split("\n")):
            own = first_strong_direction(paragraph)
            if own is not None:
                paragraphs.append((card, class_name, index, paragraph, own, in_head))
    drawn = driver.execute_script(LAYOUT_SCRIPT, [list(p[:4]) for p in paragraphs]) if paragraphs else []
    wrong_order, wrong_side, telling = [], [], 0
    for (card, class_name, index, paragraph, own, in_head), (as_ltr, as_rtl, differ, side) in zip(paragraphs, drawn):
        if not (as_ltr if own == "ltr" else as_rtl) or (differ and (as_rtl if own == "ltr" else as_ltr)):
            wrong_order.append((card, class_name, index, paragraph, own))
        telling += differ
        # An Android header's subtitle is as wide as its text: it has no side of its own.
        expected = None if in_head else SIDE[own] if card.startswith("android") else SIDE[interface]
        if expected is not None and side != expected:
            wrong_side.append((card, class_name, index, paragraph, side, expected))
    report.check(paragraphs and not wrong_order and telling > 0,
                 f"{label}: each of the {len(paragraphs)} lines of the cards' titles, subtitles and bodies is laid "
                 f"out in the direction of its first strong character outside isolates (UAX #9 P2-P3; "
                 f"{telling} of them would differ the other way; wrong: {wrong_order[:3]})")
    report.check(paragraphs and not wrong_side,
                 f"{label}: Android aligns each line to its own start, iOS to the interface's ({interface}) "
                 f"(wrong: {wrong_side[:3]})")
    return sum(1 for p in paragraphs if p[4] != interface)
