#!/usr/bin/env bash
# Measures what one notification-text process needs, to size the Kubernetes
# requests/limits and the systemd MemoryMax: resident memory idle and under
# load, and CPU time per request. A benchmark: it prints figures, asserts none.
#
#   deploy/measure-footprint.sh [THREADS]      (default 1, as in the Deployment)
#
# Loopback only (127.0.0.1), wrk runs are bounded (MEASURE_SECONDS each, default
# 10). Needs wrk (installed with apt-get when missing) and python3.
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
threads="${1:-1}"
seconds="${MEASURE_SECONDS:-10}"

command -v wrk >/dev/null || {
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq wrk >/dev/null
}
"$SWIFT" build -c release --static-swift-stdlib --product notification-text >/dev/null
binary="$("$SWIFT" build -c release --static-swift-stdlib --show-bin-path)/notification-text"

work="$(mktemp -d)"
server_pid=""
trap '[ -n "$server_pid" ] && kill -KILL "$server_pid" 2>/dev/null; rm -rf "$work"' EXIT

# Payloads: a typical chat message for /body; compose batches of 20 and of
# 1000 notifications (the request maximum) for /compose, the last also with
# long texts so the request is just under the default 1 MiB body limit.
python3 - "$work" <<'PY'
import json, sys
work = sys.argv[1]
text = ("Hey team, the deploy of **build 4182** finished. The [dashboard](https://status.example.com/d/4182) "
        "looks green; run `make verify` if you touched the ~~old~~ new config. Ping [@ana](https://chat.example.com/u/ana) 👍")
json.dump({"text": text, "maxUnits": 256}, open(f"{work}/body.json", "w"))
def batch(count):
    return {"now": "2026-11-29T18:00:00Z", "recipient": "u-me", "maxAgeSeconds": 600,
            "notifications": [{"id": f"m{i}", "source": "chat", "type": "message" if i % 3 else "mention",
                               "timestamp": f"2026-11-29T17:{50 + i % 10:02d}:{i % 60:02d}Z",
                               "thread": "release-4182", "threadTitle": "#release",
                               "sender": {"id": f"u-{i % 7}", "name": f"Person {i % 7}"},
                               "text": text, "url": f"https://chat.example.com/c/release/m{i}"}
                              for i in range(count)]}
json.dump(batch(20), open(f"{work}/compose-20.json", "w"))
json.dump(batch(1000), open(f"{work}/compose-1000.json", "w"))
# Near the default 1 MiB body limit: 1000 notifications with ~600-byte texts.
text = (text + " ") * 3
big = batch(1000)
assert len(json.dumps(big)) < 1_048_576, len(json.dumps(big))
json.dump(big, open(f"{work}/compose-1mib.json", "w"))
PY
cat >"$work/post.lua" <<'LUA'
local f = assert(io.open(os.getenv("PAYLOAD"), "rb")); local body = f:read("*a"); f:close()
wrk.method = "POST"; wrk.body = body; wrk.headers["Content-Type"] = "application/json"
function done(summary, latency, requests)
  io.write(string.format("WRK requests=%d errors=%d non2xx=%d\n", summary.requests,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status))
end
LUA

# As deployed: jemalloc preloaded (docs/adr/0009) and glibc's tunable for a run without it;
# MEASURE_ALLOCATOR=glibc measures without the preload.
jemalloc="/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2"
preload=""
if [ "${MEASURE_ALLOCATOR:-jemalloc}" = jemalloc ]; then
  [ -e "$jemalloc" ] || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libjemalloc2 >/dev/null; }
  preload="$jemalloc"
fi
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
NOTIFICATION_TEXT_HOST=127.0.0.1 NOTIFICATION_TEXT_PORT="$port" NOTIFICATION_TEXT_THREADS="$threads" \
  LD_PRELOAD="$preload" GLIBC_TUNABLES=glibc.malloc.tcache_count=64 \
  "$binary" serve >"$work/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 50); do deploy/healthcheck.sh "$port" && break; sleep 0.1; done
sleep 1

clock_ticks="$(getconf CLK_TCK)"
cpu_ticks() { awk '{print $14 + $15}' "/proc/$server_pid/stat"; }
kib() { awk -v key="$1:" '$1 == key {print $2}' "/proc/$server_pid/status"; }

printf 'notification-text serve, %s thread(s), %s s per run, %s, %s cores online\n' \
  "$threads" "$seconds" "$(uname -m)" "$(nproc)"
printf 'idle: RSS %d KiB\n' "$(kib VmRSS)"
printf '%-36s %10s %8s %10s %12s %12s\n' "run" "req/s" "cores" "CPU µs/req" "RSS KiB" "peak KiB"

run() { # label path payload connections
  local before after start end requests
  before="$(cpu_ticks)"; start="$(date +%s.%N)"
  PAYLOAD="$work/$3" wrk -t2 -c"$4" -d"${seconds}s" -s "$work/post.lua" "http://127.0.0.1:$port$2" >"$work/wrk.out"
  end="$(date +%s.%N)"; after="$(cpu_ticks)"
  requests="$(sed -n 's/^WRK requests=\([0-9]*\).*/\1/p' "$work/wrk.out")"
  grep -q 'non2xx=0$' "$work/wrk.out" || echo "  (some answers were not 2xx: $(grep WRK "$work/wrk.out"))"
  awk -v label="$1" -v req="$requests" -v t0="$start" -v t1="$end" -v c0="$before" -v c1="$after" \
      -v hz="$clock_ticks" -v rss="$(kib VmRSS)" -v hwm="$(kib VmHWM)" 'BEGIN {
    wall = t1 - t0; cpu = (c1 - c0) / hz
    printf "%-36s %10.0f %8.2f %10.1f %12d %12d\n", label, req / wall, cpu / wall, req ? cpu * 1e6 / req : 0, rss, hwm }'
}

run "/body typical, 16 conns" /body body.json 16
run "/compose 20, 16 conns" /compose compose-20.json 16
run "/compose 1000 (max batch), 16 conns" /compose compose-1000.json 16
run "/compose ~1 MiB, 64 conns" /compose compose-1mib.json 64
run "/body typical, 256 conns" /body body.json 256

kill -TERM "$server_pid"; wait "$server_pid" || true; server_pid=""
