#!/bin/sh
# Runs bench_osrt bare, with the osrt plugin preloaded (no instance: the
# pass-through cost) and traced (an instance started, default threshold),
# interleaved ROUNDS times; prints the median workload time of each and its
# ratio to bare. Optional: strace -f and ltrace on a smaller workload.
# Usage: run_bench_osrt.sh BUILD_DIR [ROUNDS]
set -eu
build=${1:?build dir}
rounds=${2:-7}
bench=$build/bench/bench_osrt
plugin=$build/lib/prof/plugins/libprof-osrt.so
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms() { sed -n 's/^workload_ms=//p'; }
i=0
while [ "$i" -lt "$rounds" ]; do
  "$bench" bare --repeat=3 | ms >> "$tmp/bare"
  LD_PRELOAD=$plugin "$bench" bare --repeat=3 | ms >> "$tmp/preloaded"
  LD_PRELOAD=$plugin "$bench" traced --repeat=3 | ms >> "$tmp/traced"
  i=$((i + 1))
done
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
bare=$(median "$tmp/bare")
for mode in bare preloaded traced; do
  m=$(median "$tmp/$mode")
  printf '%-10s median %8.2f ms  ratio %.3fx  (runs: %s)\n' "$mode" "$m" \
    "$(echo "$m $bare" | awk '{print $1/$2}')" "$(sort -n "$tmp/$mode" | tr '\n' ' ')"
done
# The tracers, on a tenth of the work (scaled back up), when installed.
small="--repeat=1 --writes=50000 --locks=200000"
base=$("$bench" bare $small | ms)
if command -v strace >/dev/null; then
  s=$(strace -f -o /dev/null "$bench" bare $small | ms)
  printf 'strace -f  %8.2f ms vs %8.2f ms bare (1/10 workload): %.1fx\n' "$s" "$base" \
    "$(echo "$s $base" | awk '{print $1/$2}')"
fi
if command -v ltrace >/dev/null; then
  l=$(ltrace -f -o /dev/null "$bench" bare $small | ms)
  printf 'ltrace -f  %8.2f ms vs %8.2f ms bare (1/10 workload): %.1fx\n' "$l" "$base" \
    "$(echo "$l $base" | awk '{print $1/$2}')"
fi
