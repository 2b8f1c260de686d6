#!/usr/bin/env bash
# The NotificationText library (plain values) and the engine under it are
# what an iOS app (a notification service extension) links to run the very
# renderer and composer the service runs. This check proves what that
# promise needs:
#   1. no source file of NotificationEngine imports anything (the standard
#      library is implicit), and none of NotificationText imports anything but
#      NotificationEngine; none uses `#if canImport` to reach for a platform module;
#   2. the engine has no `public` and no `@_spi` declaration (it is reached
#      with `package` access only), and NotificationText's own files touch no
#      raw memory (no Unsafe* type, no withUnsafe*, no unsafeBitCast);
#   3. each module's sources compile on their own with swiftc, the engine
#      first, then the library against it alone, with no other search path, no
#      C target and no other module of the package
#      (-disable-implicit-concurrency-module-import and
#      -disable-implicit-string-processing-module-import leave only Swift).
# Usage: scripts/check-library.sh  (make check-library, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC="${SWIFTC:-swiftc}"
engine_dir=Sources/NotificationEngine
library_dir=Sources/NotificationText
import_pattern='^[[:space:]]*(@_exported[[:space:]]+|@_implementationOnly[[:space:]]+|@preconcurrency[[:space:]]+|@testable[[:space:]]+)?import[[:space:]]|canImport\('

fail() {
  printf 'FAIL: %s\n%s\n' "$1" "$2" >&2
  exit 1
}

found="$(grep -rnE "$import_pattern" --include='*.swift' "$engine_dir" || true)"
[ -z "$found" ] || fail "$engine_dir may import nothing but the standard library; found:" "$found"
found="$(grep -rnE "$import_pattern" --include='*.swift' "$library_dir" | grep -vE ':[0-9]+:import NotificationEngine$' || true)"
[ -z "$found" ] || fail "$library_dir may import nothing but NotificationEngine; found:" "$found"
found="$(grep -rnE '(^|[^[:alnum:]_])(public|@_spi)([^[:alnum:]_]|$)' --include='*.swift' "$engine_dir" |
  grep -vE ':[0-9]+:[[:space:]]*//' || true)"
[ -z "$found" ] || fail "$engine_dir is reached with package access only; found:" "$found"
found="$(grep -rnE 'Unsafe[A-Za-z]*(Pointer|Buffer)|withUnsafe|unsafeBitCast|unsafeDowncast|Unmanaged' \
  --include='*.swift' "$library_dir" | grep -vE ':[0-9]+:[[:space:]]*//' || true)"
[ -z "$found" ] || fail "$library_dir holds plain values only, no raw memory; found:" "$found"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny -package-name notification_text
  -Xfrontend -disable-implicit-concurrency-module-import
  -Xfrontend -disable-implicit-string-processing-module-import)
mapfile -t engine_sources < <(find "$engine_dir" -name '*.swift' | sort)
"$SWIFTC" "${flags[@]}" -module-name NotificationEngine \
  -emit-module -emit-module-path "$work/NotificationEngine.swiftmodule" \
  -emit-library -static -o "$work/libNotificationEngine.a" "${engine_sources[@]}"
mapfile -t library_sources < <(find "$library_dir" -name '*.swift' | sort)
"$SWIFTC" "${flags[@]}" -module-name NotificationText -I "$work" \
  -emit-module -emit-module-path "$work/NotificationText.swiftmodule" \
  -emit-library -static -o "$work/libNotificationText.a" "${library_sources[@]}"
echo "ok: $engine_dir (${#engine_sources[@]} files) imports nothing, $library_dir (${#library_sources[@]} files) only the engine, and both build alone with the standard library only"
