#!/usr/bin/env bash
# `make bench`: every benchmark, bounded (about 6 minutes), then one summary.
# Knobs: BENCH_SECONDS, BENCH_ROUNDS, BENCH_SEED, BENCH_MILLION, BENCH_PEER (bench/http_bench.py),
# SOAK_MINUTES (default 1; the target's 10-minute soak is SOAK_MINUTES=10 bench/soak.py).
set -euo pipefail
cd "$(dirname "$0")/.."
bench/setup.sh
PY=.venv/bin/python

echo; echo "== renderer: swift run -c release notification-bench"
${SWIFT:-swift} run -c release notification-bench | tee bench/out/render.txt

echo; echo "== the WebAssembly module in Node beside the native engine (make wasm)"
make --no-print-directory wasm >/dev/null
bench/wasm.sh

echo; echo "== CLI: hyperfine (process start + one render)"
hyperfine --warmup 3 --min-runs 30 --export-markdown bench/out/cli.md \
  ".build/release/notification-text render < bench/payloads/body-typical.txt" | tail -n +1

echo; echo "== CLI: --json-lines, lines per second with the process start (hyperfine)"
bench/cli-json-lines.sh .build/release/notification-text

echo; echo "== HTTP: wrk side by side"
$PY bench/http_bench.py

echo; echo "== instructions per request: callgrind"
$PY bench/instructions.py

echo; echo "== soak: ${SOAK_MINUTES:-1} min at 80% of peak"
SOAK_MINUTES="${SOAK_MINUTES:-1}" $PY bench/soak.py

echo; echo "================ summary ================"
cat bench/out/http.md
echo
cat bench/out/instructions.md
echo
cat bench/out/soak.md
echo
echo "CLI --json-lines:"
cat bench/out/cli-json-lines.md
echo
echo "WebAssembly module:"
cat bench/out/wasm.md
echo
echo "renderer (notification-bench):"
cat bench/out/render.txt
