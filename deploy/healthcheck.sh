#!/bin/bash
# Liveness probe for the container image: GET /healthz on the local port and
# succeed only on a 200 status line. Written for bash's /dev/tcp because the
# slim runtime image has no curl or wget; Kubernetes uses its own httpGet probes.
#
# Usage: notification-text-healthcheck [PORT] [PATH]
# (defaults: $NOTIFICATION_TEXT_PORT or 8080, /healthz)
set -u

port="${1:-${NOTIFICATION_TEXT_PORT:-8080}}"
path="${2:-/healthz}"

# The service listens on 0.0.0.0 in the container, so loopback always reaches it.
exec 3<>"/dev/tcp/127.0.0.1/${port}" || exit 1
printf 'GET %s HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n' "$path" >&3 || exit 1

# Read only the status line, with a bound so a stuck server fails the probe.
IFS= read -r -t 2 status_line <&3 || exit 1
exec 3<&-

case "$status_line" in
  "HTTP/1.0 200"* | "HTTP/1.1 200"*) exit 0 ;;
  *) exit 1 ;;
esac
