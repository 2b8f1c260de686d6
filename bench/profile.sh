#!/usr/bin/env bash
# Profiles the service (or any server: PROFILE_CMD) under the /body load of the benchmark.
#   1. perf record -e cpu-clock (software sampling: works where hardware counters are
#      "not supported", as on this machine), kernel included: where the wall time goes.
#   2. valgrind --tool=callgrind on a short, lighter load: user-space instructions by
#      function, repeatable whatever else the machine does.
# Output: bench/out/profile-perf.txt, bench/out/profile-callgrind.txt (Swift names demangled).
# Knobs: PROFILE_SECONDS (default 8), PROFILE_PATH (/body), PROFILE_PAYLOAD, PROFILE_CMD, SKIP_CALLGRIND=1.
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_LOAD="${PROFILE_SECONDS:-8}"
ROUTE="${PROFILE_PATH:-/body}"
PAYLOAD="${PROFILE_PAYLOAD:-bench/payloads/body-typical.json}"
CMD="${PROFILE_CMD:-.build/release/notification-text serve --host 127.0.0.1 --port 0 --threads 1}"
OUT=bench/out
mkdir -p "$OUT"
command -v perf >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq linux-perf >/dev/null; }
command -v valgrind >/dev/null || { apt-get update -qq; DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind >/dev/null; }
DEMANGLE="${SWIFT_DEMANGLE:-$(command -v swift-demangle || echo "$(dirname "$(command -v swift)")/swift-demangle")}"
demangle() { if [ -x "$DEMANGLE" ]; then "$DEMANGLE" --simplified; else cat; fi; }

# Starts "$@" with stdout to a file, waits for a JSON start line naming the port.
start_server() {
  local log="$1"; shift
  "$@" >"$log" 2>/dev/null &
  SERVER_PID=$!
  for _ in $(seq 1 600); do
    PORT=$(python3 - "$log" <<'PY' 2>/dev/null || true
import json, re, sys
for line in open(sys.argv[1], encoding="utf-8", errors="replace"):
    try:
        start = json.loads(line)
    except ValueError:
        continue
    items = [start] + [v for v in start.values() if isinstance(v, dict)]
    for item in items:
        if isinstance(item.get("port"), int) and item["port"] > 0:
            print(item["port"]); sys.exit(0)
        for key in ("address", "listening", "bound", "url"):
            value = item.get(key)
            if isinstance(value, str) and re.search(r":(\d+)/?$", value):
                print(re.search(r":(\d+)/?$", value).group(1)); sys.exit(0)
sys.exit(1)
PY
)
    [ -n "$PORT" ] && return 0
    kill -0 "$SERVER_PID" 2>/dev/null || { echo "server exited before its start line" >&2; return 1; }
    sleep 0.1
  done
  echo "no start line from: $*" >&2; return 1
}
stop_server() { kill -TERM "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }
load() { # connections seconds
  BENCH_PAYLOAD="$PAYLOAD" BENCH_PATH="$ROUTE" wrk -t1 -c"$1" -d"$2"s -s bench/wrk/post.lua "http://127.0.0.1:$PORT" \
    | grep -E 'Requests/sec|WRK_JSON' || true
}

echo "== perf record -e cpu-clock, $ROUTE, wrk -t1 -c64 -d${SECONDS_LOAD}s"
# shellcheck disable=SC2086
start_server "$OUT/profile-server.log" $CMD
trap stop_server EXIT
load 64 2 >/dev/null  # warm-up
load 64 "$((SECONDS_LOAD + 2))" > "$OUT/profile-wrk.txt" &
LOAD_PID=$!
sleep 1
perf record -q -e cpu-clock -F 1999 -g -p "$SERVER_PID" -o "$OUT/perf.data" -- sleep "$SECONDS_LOAD" 2>/dev/null
wait "$LOAD_PID"
cat "$OUT/profile-wrk.txt"
set +o pipefail  # head closes the pipe early on purpose
{
  echo "# perf record -e cpu-clock -F 1999 -g, $ROUTE under wrk -t1 -c64, $(date -u '+%F %H:%M UTC')"
  echo "## by shared object"
  perf report -i "$OUT/perf.data" --no-children --stdio --sort dso -g none 2>/dev/null | grep '%' | head -15
  echo "## top symbols (self)"
  perf report -i "$OUT/perf.data" --no-children --stdio --sort dso,sym -g none 2>/dev/null | grep '%' | head -60 | demangle
  echo "## top symbols (children: inclusive)"
  perf report -i "$OUT/perf.data" --children --stdio --sort sym -g none 2>/dev/null | grep '%' | head -60 | demangle
} > "$OUT/profile-perf.txt"
stop_server
trap - EXIT
sed -n '1,40p' "$OUT/profile-perf.txt"

if [ "${SKIP_CALLGRIND:-0}" != 1 ]; then
  echo; echo "== valgrind --tool=callgrind, $ROUTE, wrk -t1 -c8 -d${SECONDS_LOAD}s"
  # shellcheck disable=SC2086
  start_server "$OUT/profile-server-cg.log" valgrind --tool=callgrind --callgrind-out-file="$OUT/callgrind.out" $CMD
  trap stop_server EXIT
  load 8 "$SECONDS_LOAD"
  stop_server
  trap - EXIT
  callgrind_annotate --inclusive=no "$OUT/callgrind.out" 2>/dev/null | head -60 | demangle > "$OUT/profile-callgrind.txt"
  callgrind_annotate --inclusive=yes "$OUT/callgrind.out" 2>/dev/null | head -80 | demangle >> "$OUT/profile-callgrind.txt"
  sed -n '1,60p' "$OUT/profile-callgrind.txt"
fi
