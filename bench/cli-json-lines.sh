#!/usr/bin/env bash
# The CLI as a batch oracle: lines per second of `render --json-lines` and
# `compose --json-lines`, process start included, with hyperfine.
#   - body-typical: bench/payloads/body-typical.json (one POST /body request,
#     a 281-byte chat message) on each of LINES lines;
#   - compose-single: one pending message (the README's example request) on
#     each of LINES lines;
#   - compose-20: bench/payloads/compose-20.json (20 notifications, 6.3 KB)
#     on each of LINES / 10 lines;
#   - start: an empty stdin, the process start alone.
# The inputs are files in bench/out/, read through stdin redirection; the
# answers go to /dev/null. Writes bench/out/cli-json-lines.md.
# Usage: bench/cli-json-lines.sh [BINARY]   (LINES=100000 by default; part of bench/run.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
BINARY="${1:-.build/release/notification-text}"
LINES="${LINES:-100000}"
RUNS="${CLI_RUNS:-5}"
out=bench/out
mkdir -p "$out"
command -v hyperfine >/dev/null || { echo "hyperfine is missing (bench/setup.sh installs it)" >&2; exit 1; }
[ -x "$BINARY" ] || { echo "no binary at $BINARY" >&2; exit 1; }

python3 - "$out" "$LINES" <<'PY'
import json, sys
out, lines = sys.argv[1], int(sys.argv[2])
def one_line(path):
    with open(path, encoding="utf-8") as handle:
        return json.dumps(json.load(handle), ensure_ascii=False, separators=(",", ":"))
single = json.dumps({"now": "2026-11-29T12:00:00Z", "notifications": [{
    "id": "chat:42", "type": "message", "timestamp": "2026-11-29T11:59:30Z",
    "text": "Lunch at **noon**?", "sender": {"name": "Ana"}, "thread": "general", "threadTitle": "General"}]},
    separators=(",", ":"))
for name, line, count in [("body-typical", one_line("bench/payloads/body-typical.json"), lines),
                          ("compose-single", single, lines),
                          ("compose-20", one_line("bench/payloads/compose-20.json"), lines // 10)]:
    with open(f"{out}/{name}.jsonl", "w", encoding="utf-8") as handle:
        handle.write((line + "\n") * count)
PY

# A bad answer would make the figures meaningless: every line must be a 200 answer.
for pair in "render body-typical body" "compose compose-single kind" "compose compose-20 kind"; do
  set -- $pair
  answers="$("$BINARY" "$1" --json-lines <"$out/$2.jsonl" | grep -c "^{\"$3\":")"
  expected="$(wc -l <"$out/$2.jsonl")"
  [ "$answers" -eq "$expected" ] || { echo "$1 --json-lines answered $answers of $expected lines of $2" >&2; exit 1; }
done

load="$(cut -d' ' -f1 /proc/loadavg)"
hyperfine --warmup 1 --runs "$RUNS" --export-json "$out/cli-json-lines.json" \
  -n start "$BINARY render --json-lines </dev/null" \
  -n body-typical "$BINARY render --json-lines <$out/body-typical.jsonl >/dev/null" \
  -n compose-single "$BINARY compose --json-lines <$out/compose-single.jsonl >/dev/null" \
  -n compose-20 "$BINARY compose --json-lines <$out/compose-20.jsonl >/dev/null"

python3 - "$out" "$load" <<'PY'
import json, sys
out, load = sys.argv[1], sys.argv[2]
results = json.load(open(f"{out}/cli-json-lines.json"))["results"]
def count(name):
    return sum(1 for _ in open(f"{out}/{name}.jsonl", encoding="utf-8")) if name != "start" else 0
rows = ["| input | lines | mean | lines/s, process start included |", "| --- | --- | --- | --- |"]
for result in results:
    name, lines, mean = result["command"], count(result["command"]), result["mean"]
    rate = f"{lines / mean:,.0f}" if lines else "–"
    rows.append(f"| {name} | {lines:,} | {mean * 1000:.1f} ms (median {result['median'] * 1000:.1f}) | {rate} |")
text = "\n".join(rows) + f"\n\nload average before the run: {load}\n"
open(f"{out}/cli-json-lines.md", "w").write(text)
print(text)
PY
