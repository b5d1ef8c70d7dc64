#!/bin/sh
# Overhead of device profiling on the example training step: wall time of
# gcu-train-step bare, under prof with operators only, and under prof with
# every activity and the API trace, interleaved ROUNDS times; prints medians
# and their ratio to bare. prof's own start and finish are included.
# Usage: run_bench_gcu.sh BUILD_DIR [ROUNDS] [STEPS]
set -eu
build=${1:?build dir}
rounds=${2:-7}
steps=${3:-10}
app="$build/bin/gcu-train-step --steps $steps --quiet"
prof="$build/bin/prof --quiet --force-overwrite"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ms() { # command...: wall milliseconds
  t0=$(date +%s%N)
  "$@" >/dev/null 2>&1
  t1=$(date +%s%N)
  echo $(((t1 - t0) / 1000000))
}
i=0
while [ "$i" -lt "$rounds" ]; do
  ms $app >> "$tmp/bare"
  ms $prof --enable-activities '*/general/operator' -o "$tmp/op" $app >> "$tmp/operators"
  ms $prof --enable-activities all -o "$tmp/all" $app >> "$tmp/all"
  i=$((i + 1))
done
median() { sort -n "$1" | awk '{v[NR]=$1} END {print v[int((NR+1)/2)]}'; }
bare=$(median "$tmp/bare")
for mode in bare operators all; do
  m=$(median "$tmp/$mode")
  printf '%-10s median %6d ms  ratio %.3fx  (runs: %s)\n' "$mode" "$m" \
    "$(echo "$m $bare" | awk '{print $1/$2}')" "$(sort -n "$tmp/$mode" | tr '\n' ' ')"
done
records=$("$build/bin/prof" --import-profile "$tmp/all.profrep" --print-summary 2>/dev/null |
  sed -n 's/.* \([0-9][0-9]*\)  *records  *GCU 0 \/ GCU records produced$/\1/p' | head -1)
echo "records per run with every activity: ${records:-?} (report $(stat -c %s "$tmp/all.profrep") bytes)"
