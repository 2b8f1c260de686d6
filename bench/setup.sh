#!/usr/bin/env bash
# Installs what the benchmarks need when it is missing, and builds what they run:
# wrk, hyperfine and jemalloc (apt-get), the bench venv .venv/ (PyPI `regex` for
# the Python peer's grapheme clusters), the release build of the service, the C
# reference.
set -euo pipefail
cd "$(dirname "$0")/.."

missing=()
for tool in wrk hyperfine gcc pkg-config; do
  command -v "$tool" >/dev/null 2>&1 || missing+=("$tool")
done
pkg-config --exists libevent 2>/dev/null || missing+=(libevent-dev)
# The service runs with jemalloc preloaded, as deployed (docs/adr/0009).
[ -e "/usr/lib/$(uname -m)-linux-gnu/libjemalloc.so.2" ] || missing+=(libjemalloc2)
if ((${#missing[@]})); then
  echo "installing ${missing[*]} with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [ ! -x .venv/bin/python ]; then
  python3 -m venv .venv
fi
.venv/bin/python -c 'import regex, wasmtime' 2>/dev/null || .venv/bin/pip install -q -r bench/requirements.txt

mkdir -p bench/out
if [ ! -x bench/out/reference-server ] || [ bench/reference-server.c -nt bench/out/reference-server ]; then
  gcc -O2 -Wall -Wextra -o bench/out/reference-server bench/reference-server.c $(pkg-config --cflags --libs libevent)
fi

${SWIFT:-swift} build -c release --product notification-text
