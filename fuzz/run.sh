#!/bin/sh
# Runs one libFuzzer target for a bounded time and prints its figures.
#
#   fuzz/run.sh TARGET SECONDS
#
# TARGET is `render` or `compose` (built as .build-fuzz/fuzz-TARGET). New inputs
# go to .build-fuzz/corpus/TARGET (not committed); the committed seeds in
# fuzz/corpus/TARGET are read only. A crash, a broken promise (a trap), a
# leak or an input slower than 10 s fails the run and leaves the input in
# fuzz/artifacts/ for `.build-fuzz/fuzz-TARGET fuzz/artifacts/<file>` to replay.
set -eu
target=$1
seconds=$2
binary=.build-fuzz/fuzz-$target
work=.build-fuzz/corpus/$target
log=.build-fuzz/$target.log
case $target in render) dict=fuzz/markdown.dict ;; *) dict=fuzz/json.dict ;; esac
mkdir -p "$work" fuzz/artifacts

status=0
# Swift's own crash backtracer would read the stack under ASan and report
# itself; libFuzzer prints the stack and saves the input anyway.
SWIFT_BACKTRACE=enable=no "$binary" "$work" "fuzz/corpus/$target" \
  -dict="$dict" \
  -max_total_time="$seconds" \
  -max_len=12000 \
  -timeout=10 \
  -rss_limit_mb=2048 \
  -print_final_stats=1 \
  -artifact_prefix=fuzz/artifacts/"$target"- \
  >"$log" 2>&1 || status=$?

runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log")
corpus=$(ls "$work" | wc -l)
seeds=$(ls "fuzz/corpus/$target" | wc -l)
cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | cut -d' ' -f2)
echo "fuzz $target: ${seconds}s, ${runs:-?} runs, ${rate:-?} execs/s, coverage ${cov:-?} edges, corpus $corpus new + $seeds seeds, exit $status"
if [ "$status" -ne 0 ]; then
  echo "fuzz $target FAILED; log tail (full log: $log):"
  grep -v '^#' "$log" | tail -40
  exit "$status"
fi
