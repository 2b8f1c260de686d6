#!/usr/bin/env bash
# The NotificationText library is the rules alone, so an iOS app (a
# notification service extension) can link the very renderer and composer
# the service runs. This check proves what that promise needs:
#   1. no source file of the module imports anything (the standard library is
#      implicit), and none uses `#if canImport` to reach for a platform module;
#   2. the module's sources compile on their own with swiftc, as one module,
#      with no search path, no C target and no other module of the package
#      (-disable-implicit-concurrency-module-import and
#      -disable-implicit-string-processing-module-import leave only Swift);
#   3. it uses no standard-library API newer than the platforms Package.swift
#      declares (scripts/check-availability.py).
# Usage: scripts/check-library.sh  (make check-library, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC="${SWIFTC:-swiftc}"
module_dir=Sources/NotificationText

imports="$(grep -rnE '^[[:space:]]*(@_exported[[:space:]]+|@_implementationOnly[[:space:]]+|@preconcurrency[[:space:]]+)?import[[:space:]]|canImport\(' \
  --include='*.swift' "$module_dir" || true)"
if [ -n "$imports" ]; then
  printf 'FAIL: %s may import nothing but the standard library; found:\n%s\n' "$module_dir" "$imports" >&2
  exit 1
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mapfile -t sources < <(find "$module_dir" -name '*.swift' | sort)
"$SWIFTC" -parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny \
  -Xfrontend -disable-implicit-concurrency-module-import \
  -Xfrontend -disable-implicit-string-processing-module-import \
  -module-name NotificationText -emit-module -emit-module-path "$work/NotificationText.swiftmodule" \
  -emit-library -static -o "$work/libNotificationText.a" "${sources[@]}"
echo "ok: $module_dir (${#sources[@]} files) imports nothing and builds alone with the standard library only"

# 3. no standard-library API newer than the platforms Package.swift declares
#    (Apple availability, which a Linux build does not check).
python3 scripts/check-availability.py --self-test
python3 scripts/check-availability.py "NotificationText:$module_dir"
