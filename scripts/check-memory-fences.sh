#!/usr/bin/env bash
# Raw memory lives in three modules (docs/adr/0032): the engine
# (NotificationEngine with its lane mask, EnginePrimitives), the libevent
# adapter (EventHTTP) and the service's edge with the platform
# (NotificationService). Every other module of Sources/ is built with strict
# memory safety, its diagnostics errors, so an unsafe construct written into
# it fails the build. This check keeps that true as modules come and go:
#   1. every regular and executable target outside Tests/ but the three
#      fences has `.strictMemorySafety()` and StrictMemorySafety as an error
#      in Package.swift (read from `swift package dump-package`);
#   2. none of their sources names raw memory (an Unsafe* pointer or buffer,
#      withUnsafe*, unsafeBitCast, unsafeDowncast, Unmanaged, OpaquePointer,
#      the closures that lend a buffer: withUTF8, withContiguous*Storage*,
#      withCString, memory binding) or writes an `unsafe` expression or `@unsafe`, which the compiler
#      accepts where no unsafe operation follows (a closure that only reads
#      a buffer's `count`), or silences.
# Usage: scripts/check-memory-fences.sh  (make check-fences, part of make test)
set -euo pipefail
cd "$(dirname "$0")/.."
SWIFT="${SWIFT:-swift}"
fences="NotificationEngine EnginePrimitives EventHTTP NotificationService"

fail() {
  printf 'FAIL: %s\n%s\n' "$1" "$2" >&2
  exit 1
}

dump="$("$SWIFT" package dump-package)"
modules="$(FENCES="$fences" python3 -c '
import json, os, sys
fences = set(os.environ["FENCES"].split())
package = json.load(sys.stdin)
def strict(target):
    settings = [setting["kind"] for setting in target.get("settings") or []]
    return {"strictMemorySafety": {}} in settings and \
        {"treatWarning": {"_0": "StrictMemorySafety", "_1": "error"}} in settings
checked, missing = [], []
for target in package["targets"]:
    if target["type"] not in ("regular", "executable") or (target.get("path") or "").startswith("Tests/"):
        continue
    if target["name"] in fences:
        continue
    checked.append(target["name"])
    if not strict(target):
        missing.append(target["name"])
if missing:
    print("MISSING " + " ".join(missing))
else:
    print(" ".join(checked))
' <<<"$dump")"
case "$modules" in
  MISSING*) fail "outside the fences ($fences), every module has strictMemorySafety as an error in Package.swift; not:" "${modules#MISSING }" ;;
esac
[ -n "$modules" ] || fail "no module outside the fences was found" "$dump"

found=""
for module in $modules; do
  [ -d "Sources/$module" ] || fail "no sources for $module" "Sources/$module"
  found+="$(grep -rnE 'Unsafe[A-Za-z]*(Pointer|Buffer)|withUnsafe|unsafeBitCast|unsafeDowncast|Unmanaged|OpaquePointer|'\
'withUTF8|withContiguous[A-Za-z]*StorageIfAvailable|withCString|withMemoryRebound|assumingMemoryBound|bindMemory|@unsafe|'\
'(^|[^[:alnum:]_."])unsafe[[:space:]]+[[:alnum:]_$&(\[]' \
    --include='*.swift' "Sources/$module" | grep -vE ':[0-9]+:[[:space:]]*//' || true)"
done
[ -z "$found" ] || fail "outside the fences ($fences), no module holds raw memory or an unsafe expression; found:" "$found"
echo "ok: raw memory only in $fences; strict memory safety, as errors, on $modules"
