#!/usr/bin/env bash
# The NotificationText library (plain values) and the engine under it are
# what an iOS app (a notification service extension) links to run the very
# renderer and composer the service runs. This check proves what that
# promise needs:
#   1. EnginePrimitives imports nothing but the toolchain's clang intrinsics
#      on x86-64 (its one file, LaneBits.swift, inside `#if arch(x86_64)`),
#      NotificationEngine nothing but EnginePrimitives, NotificationText
#      nothing but NotificationEngine (the standard library is implicit);
#      none uses `#if canImport` to reach for a platform module, but for
#      the library's one file that builds an iOS communication notification
#      under `#if canImport(Intents) && canImport(UserNotifications)`;
#   2. the engine has no `@_spi` and no `public` declaration (it is reached
#      with `package` access) but for the values NotificationText names by a
#      typealias in SharedValues.swift (docs/adr/0050), and NotificationText's own files touch no
#      raw memory (no Unsafe* type, no withUnsafe*, no unsafeBitCast);
#   3. each module's sources compile on their own with swiftc, the
#      primitives, the engine, then the library, each against the ones before
#      alone, with no other search path, no
#      C target and no other module of the package
#      (-disable-implicit-concurrency-module-import and
#      -disable-implicit-string-processing-module-import leave only Swift);
#   4. they use no standard-library API newer than the platforms Package.swift
#      declares (scripts/check-availability.py).
# Usage: scripts/check-library.sh  (make check-library, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFTC="${SWIFTC:-swiftc}"
primitives_dir=Sources/EnginePrimitives
engine_dir=Sources/NotificationEngine
library_dir=Sources/NotificationText
import_pattern='^[[:space:]]*(@_exported[[:space:]]+|@_implementationOnly[[:space:]]+|@preconcurrency[[:space:]]+|@testable[[:space:]]+)?import[[:space:]]|canImport\('

fail() {
  printf 'FAIL: %s\n%s\n' "$1" "$2" >&2
  exit 1
}

mapfile -t primitives_sources < <(find "$primitives_dir" -name '*.swift' | sort)
[ "${primitives_sources[*]}" = "$primitives_dir/LaneBits.swift" ] ||
  fail "$primitives_dir holds the lane mask alone; found:" "${primitives_sources[*]}"
found="$(grep -nE "$import_pattern" "$primitives_dir/LaneBits.swift" | grep -vE '^2:import _Builtin_intrinsics\.intel$' || true)"
[ -z "$found" ] || fail "$primitives_dir may import only _Builtin_intrinsics.intel; found:" "$found"
[ "$(sed -n 1,3p "$primitives_dir/LaneBits.swift")" = $'#if arch(x86_64)\nimport _Builtin_intrinsics.intel\n#endif' ] ||
  fail "$primitives_dir imports the intrinsics on x86-64 only:" "$(sed -n 1,3p "$primitives_dir/LaneBits.swift")"
found="$(grep -rnE "$import_pattern" --include='*.swift' "$engine_dir" | grep -vE ':[0-9]+:import EnginePrimitives$' || true)"
[ -z "$found" ] || fail "$engine_dir may import nothing but EnginePrimitives; found:" "$found"
# Apple's frameworks in one file only, where they exist (never here): the
# communication notification an extension builds from a payload (ADR 0045).
communication="$library_dir/UNNotificationContent+Communication.swift"
found="$(grep -rnE "$import_pattern" --include='*.swift' "$library_dir" | grep -vE ':[0-9]+:import NotificationEngine$' |
  grep -vxF -e "$communication:5:#if canImport(Intents) && canImport(UserNotifications) && !os(macOS)" \
    -e "$communication:6:import Intents" -e "$communication:7:import UserNotifications" || true)"
[ -z "$found" ] || fail "$library_dir may import nothing but NotificationEngine (and Apple's Intents and UserNotifications in $communication); found:" "$found"
# The engine is reached with package access, but for the values the library
# names by a typealias (docs/adr/0050): each is one file's top-level public
# type, and no other file of the engine says `public`; no `@_spi` anywhere.
shared="$library_dir/SharedValues.swift"
mapfile -t shared_types < <(sed -nE 's/^public typealias ([A-Za-z]+) = NotificationEngine\.([A-Za-z]+)$/\2/p' "$shared" | sort)
[ "${#shared_types[@]}" -gt 0 ] || fail "$shared names no engine value" ""
mapfile -t public_types < <(grep -rhoE '^public (struct|enum) [A-Za-z]+' --include='*.swift' "$engine_dir" |
  awk '{print $3}' | sort)
[ "${public_types[*]}" = "${shared_types[*]}" ] ||
  fail "$engine_dir's public types are the values $shared names, no more, no fewer:" \
    "public: ${public_types[*]}; named: ${shared_types[*]}"
public_files="$(grep -rlE '^public (struct|enum) ' --include='*.swift' "$engine_dir" | sort)"
found="$(grep -rnE '(^|[^[:alnum:]_])(public|@_spi)([^[:alnum:]_]|$)' --include='*.swift' "$engine_dir" |
  grep -vE ':[0-9]+:[[:space:]]*//' | grep -vF -f <(sed 's/$/:/' <<<"$public_files") || true)"
[ -z "$found" ] || fail "$engine_dir is reached with package access only, but for the shared values; found:" "$found"
found="$(grep -rnE '@_spi' --include='*.swift' "$engine_dir" | grep -vE ':[0-9]+:[[:space:]]*//' || true)"
[ -z "$found" ] || fail "$engine_dir has no @_spi; found:" "$found"
found="$(grep -rnE 'Unsafe[A-Za-z]*(Pointer|Buffer)|withUnsafe|unsafeBitCast|unsafeDowncast|Unmanaged' \
  --include='*.swift' "$library_dir" | grep -vE ':[0-9]+:[[:space:]]*//' || true)"
[ -z "$found" ] || fail "$library_dir holds plain values only, no raw memory; found:" "$found"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-parse-as-library -swift-version 6 -enable-upcoming-feature ExistentialAny -package-name notification_text
  -Xfrontend -disable-implicit-concurrency-module-import
  -Xfrontend -disable-implicit-string-processing-module-import)
"$SWIFTC" "${flags[@]}" -module-name EnginePrimitives \
  -emit-module -emit-module-path "$work/EnginePrimitives.swiftmodule" \
  -emit-library -static -o "$work/libEnginePrimitives.a" "${primitives_sources[@]}"
mapfile -t engine_sources < <(find "$engine_dir" -name '*.swift' | sort)
"$SWIFTC" "${flags[@]}" -module-name NotificationEngine -I "$work" \
  -emit-module -emit-module-path "$work/NotificationEngine.swiftmodule" \
  -emit-library -static -o "$work/libNotificationEngine.a" "${engine_sources[@]}"
mapfile -t library_sources < <(find "$library_dir" -name '*.swift' | sort)
"$SWIFTC" "${flags[@]}" -module-name NotificationText -I "$work" \
  -emit-module -emit-module-path "$work/NotificationText.swiftmodule" \
  -emit-library -static -o "$work/libNotificationText.a" "${library_sources[@]}"
echo "ok: $primitives_dir imports only the clang intrinsics (x86-64), $engine_dir (${#engine_sources[@]} files) only the primitives, $library_dir (${#library_sources[@]} files) only the engine, and each builds alone with the standard library and the ones before"

# 4. no standard-library API newer than the platforms Package.swift declares
#    (Apple availability, which a Linux build does not check).
python3 scripts/check-availability.py --self-test
python3 scripts/check-availability.py "EnginePrimitives:$primitives_dir" "NotificationEngine:$engine_dir" \
  "NotificationText:$library_dir"
