#!/usr/bin/env bash
# Checks openapi.yaml: validates it (openapi-spec-validator), then starts the
# built server on 127.0.0.1 (any free port), checks every documented example
# against real responses and every documented limit at and past it, and runs schemathesis against it with a bounded
# number of examples and a time budget. Traffic goes to 127.0.0.1 only.
#
# usage: scripts/check-openapi.sh [path/to/notification-text]
# Needs .venv/ with openapi-spec-validator and schemathesis (`make check-openapi`
# installs them).
set -euo pipefail
cd "$(dirname "$0")/.."

venv=${VENV:-.venv}
case "$venv" in /*) ;; *) venv="$(pwd)/$venv" ;; esac
binary=${1:-$(swift build --show-bin-path)/notification-text}
max_examples=${OPENAPI_MAX_EXAMPLES:-25}
max_seconds=${OPENAPI_MAX_SECONDS:-60}

echo "check-openapi: validating openapi.yaml"
"$venv/bin/openapi-spec-validator" openapi.yaml

workdir=$(mktemp -d)
server_pid=
cleanup() {
  if [[ -n "$server_pid" ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill -TERM "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
  fi
  rm -rf "$workdir"
}
trap cleanup EXIT

# The server prints one JSON start line with its bound address, then the access log.
# A body limit above anything schemathesis generates, so every generated body
# reaches the service's own validation (the adapter's limits have their own tests).
"$binary" serve --host 127.0.0.1 --port 0 --access-log off --max-body-bytes 67108864 >"$workdir/stdout" 2>"$workdir/stderr" &
server_pid=$!
port=
for _ in $(seq 1 100); do
  port=$(sed -n 's/^{"event":"start".*"port":\([0-9]*\).*/\1/p' "$workdir/stdout" | head -n 1)
  [[ -n "$port" ]] && break
  if ! kill -0 "$server_pid" 2>/dev/null; then
    echo "check-openapi: the server exited before listening:" >&2
    cat "$workdir/stderr" >&2
    exit 1
  fi
  sleep 0.1
done
if [[ -z "$port" ]]; then
  echo "check-openapi: no start line from the server within 10 s" >&2
  exit 1
fi
base_url="http://127.0.0.1:$port"
echo "check-openapi: server at $base_url"

"$venv/bin/python" scripts/check-openapi-examples.py "$base_url" openapi.yaml
# The limits openapi.yaml and the playground restate (caps, windows, ranges),
# probed at and one past each against the server.
"$venv/bin/python" scripts/check-openapi-bounds.py "$base_url" openapi.yaml

# Schemathesis: generated requests (valid and invalid) must never get a 5xx,
# and every response must match the documented status codes, content types,
# headers and schemas. Bounded: max examples per operation and a time budget.
# scripts/schemathesis.toml keeps undeclared methods to those libevent knows.
echo "check-openapi: schemathesis (at most $max_examples examples per operation, ${max_seconds}s)"
# Run from the temporary directory so schemathesis's own state (.schemathesis/)
# stays out of the work tree.
repository=$(pwd)
export SCHEMATHESIS_HOOKS=
(cd "$workdir" && "$venv/bin/schemathesis" --config-file "$repository/scripts/schemathesis.toml" \
  run "$repository/openapi.yaml" \
  --url "$base_url" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,negative_data_rejection,unsupported_method,allow_header_conformance \
  --phases examples,coverage,fuzzing \
  --max-examples "$max_examples" \
  --max-time "$max_seconds" \
  --workers 2 \
  --seed 20261129 \
  --request-timeout 10 \
  --suppress-health-check all)

if ! kill -0 "$server_pid" 2>/dev/null; then
  echo "check-openapi: the server died during the checks" >&2
  cat "$workdir/stderr" >&2
  exit 1
fi
echo "check-openapi: passed"
