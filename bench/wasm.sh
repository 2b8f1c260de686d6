#!/usr/bin/env bash
# The WebAssembly module in Node beside the native engine in process: the
# median time of a typical POST /body answer (bench/payloads/body-typical.json)
# through notification-text.mjs, and through RequestAnswers.body in the
# release notification-bench; their ratio; the module's memory after 1 MB
# requests; then the Python package's NotificationText() and /body beside the
# same native figure (bench/wasm_python.py). Writes bench/out/wasm.md.
# Usage: bench/wasm.sh [.build/wasm]
set -euo pipefail
cd "$(dirname "$0")/.."
wasm_dir="${1:-.build/wasm}"
mkdir -p bench/out
native_bench="${NOTIFICATION_BENCH:-$(${SWIFT:-swift} build -c release --show-bin-path)/notification-bench}"
native="$("$native_bench" "engine RequestAnswers.body" | tail -n 1)"
module="$(node bench/wasm_bench.mjs "$wasm_dir")"
echo "$native"
echo "$module"
NATIVE="$native" MODULE="$module" python3 - <<'PY' | tee bench/out/wasm.md
import os, re
def ns(line):
    value, unit = re.search(r"(\d+) (ns|µs)$", line.strip()).groups()
    return int(value) * (1000 if unit == "µs" else 1)
native = ns(os.environ["NATIVE"])
lines = os.environ["MODULE"].splitlines()
module = ns(next(l for l in lines if "POST /body" in l))
print("| typical POST /body | median per answer |")
print("| --- | ---: |")
print(f"| native engine in process (RequestAnswers.body) | {native:,} ns |")
print(f"| module in Node (answerBody) | {module:,} ns |")
print(f"\nThe module answers at {native / module:.2f} of the native rate (target: at least 0.25).\n")
print(next(l for l in lines if l.startswith("module memory")))
PY
"${PYTHON:-.venv/bin/python}" bench/wasm_python.py --bench "$native_bench" | tee -a bench/out/wasm.md
