#!/bin/sh
# cpu-perf beside perf: a one-second CPU-bound workload bare, under
# `prof --cpu-profiling-callstack --sampling-frequency 1000` and under
# `perf record -F 999 -g`, interleaved ROUNDS times; prints the median wall
# time of each and its ratio to bare, prof's own fixed cost (prof on `true`),
# and the samples prof collected against the expected count.
# Usage: run_bench_cpu_perf.sh BUILD_DIR [ROUNDS]
set -eu
build=${1:?build dir}
rounds=${2:-7}
prof=$build/bin/prof
workload="$build/bin/prof-workload --seconds 1 --quiet"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

wall_ms() { # command... -> wall milliseconds
  start=$(date +%s%N)
  "$@" > /dev/null 2>&1
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

have_perf=0
command -v perf > /dev/null 2>&1 && have_perf=1
i=0
while [ "$i" -lt "$rounds" ]; do
  wall_ms $workload >> "$tmp/bare"
  wall_ms "$prof" --quiet --cpu-profiling-callstack --sampling-frequency 1000 $workload >> "$tmp/prof"
  wall_ms "$prof" --quiet --cpu-profiling-callstack --sampling-frequency 1000 true >> "$tmp/fixed"
  if [ "$have_perf" = 1 ]; then
    wall_ms perf record -q -F 999 -g -o "$tmp/perf.data" $workload >> "$tmp/perf"
  fi
  i=$((i + 1))
done
bare=$(median "$tmp/bare")
echo "bare_ms=$bare"
echo "prof_ms=$(median "$tmp/prof") ratio=$(echo "$(median "$tmp/prof") $bare" | awk '{printf "%.3f", $1/$2}')"
echo "prof_fixed_cost_ms=$(median "$tmp/fixed") (prof on true: start-up and shut-down)"
if [ "$have_perf" = 1 ]; then
  echo "perf_record_ms=$(median "$tmp/perf") ratio=$(echo "$(median "$tmp/perf") $bare" | awk '{printf "%.3f", $1/$2}')"
else
  echo "perf_record_ms=n/a (install linux-perf)"
fi
"$prof" --cpu-profiling-callstack --sampling-frequency 1000 --print-summary $workload 2>/dev/null |
  sed -n 's/.*CPU functions (\([0-9]*\) samples).*/samples=\1 expected=1000/p'
