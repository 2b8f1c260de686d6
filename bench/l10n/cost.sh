#!/usr/bin/env bash
# Instructions and heap allocations per operation of the localization engine
# (docs/adr/0013-localization.md): callgrind and memcheck on an -O build of
# the NotificationEngine sources with bench/l10n/main.swift. About 2 minutes.
set -euo pipefail
cd "$(dirname "$0")/../.."
SWIFTC=${SWIFTC:-swiftc}
out=.build-l10n-cost
mkdir -p "$out"
"$SWIFTC" -O -parse-as-library -module-name EnginePrimitives -emit-module -emit-module-path "$out/EnginePrimitives.swiftmodule" \
  -emit-library -static -o "$out/libEnginePrimitives.a" Sources/EnginePrimitives/*.swift
# shellcheck disable=SC2046
"$SWIFTC" -O -module-name NotificationEngine -I "$out" "$out/libEnginePrimitives.a" $(find Sources/NotificationEngine -name '*.swift') \
  bench/l10n/main.swift -o "$out/cost"
runs=${L10N_COST_RUNS:-20000}
instructions() {
  valgrind --tool=callgrind --callgrind-out-file=/dev/null "$out/cost" "$1" "$2" 2>&1 |
    sed -n 's/.*Collected : //p' | tr -d ,
}
allocations() {
  valgrind --tool=memcheck "$out/cost" "$1" "$2" 2>&1 | sed -n 's/.*total heap usage: \([0-9,]*\) allocs.*/\1/p' | tr -d ,
}
base=$(instructions none 0)
printf '%-28s %14s %14s\n' operation instructions allocations
for mode in choose:ru choose:ru-RU choose:pt-AO choose:xx-YY texts:en:latin texts:ru:latin texts:ar:latin \
  texts:en:cyrillic texts:ru:cyrillic texts:en:arabic texts:ar:arabic; do
  total=$(instructions "$mode" "$runs")
  # Heap blocks over 1000 runs less a single run: what each run allocates,
  # start-up and first-use work left out.
  many=$(allocations "$mode" 1001)
  one=$(allocations "$mode" 1)
  printf '%-28s %14d %14s\n' "$mode" $(((total - base) / runs)) "$(echo "scale=1; ($many - $one) / 1000" | bc)"
done
