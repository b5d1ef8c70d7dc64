#!/usr/bin/env bash
# What osrt adds to one call: bench_osrt_calls (Google Benchmark) preloaded
# with the build's plugin, ROUNDS processes, each timing the bare call and
# the interposed one (traced, and with the instance suspended) with its
# repetitions interleaved. "added" is the median over rounds of the CPU time
# a call takes interposed minus bare in the same process (CPU time: other
# work on the machine disturbs it less than wall time). With BEFORE_PLUGIN
# (another build's libprof-osrt.so), each round runs it too, right after.
# Exits 1 when the build's plugin misses a goal: a traced write() to
# /dev/null adds at most WRITE_GOAL_NS (20), a traced uncontended mutex
# lock/unlock pair at most MUTEX_GOAL_NS (4).
# Usage: run_bench_osrt_calls.sh BUILD_DIR [ROUNDS] [BEFORE_PLUGIN]
set -euo pipefail
usage="usage: run_bench_osrt_calls.sh BUILD_DIR [ROUNDS] [BEFORE_PLUGIN]"
build=$(realpath "${1:?$usage}")
rounds=${2:-5}
before=${3:-}
write_goal=${WRITE_GOAL_NS:-20}
mutex_goal=${MUTEX_GOAL_NS:-4}
bench=$build/bench/bench_osrt_calls
after=$build/lib/prof/plugins/libprof-osrt.so
for file in "$bench" "$after" ${before:+"$before"}; do
  [ -f "$file" ] || { echo "run_bench_osrt_calls.sh: $file: no such file (build bench_osrt_calls)" >&2; exit 2; }
done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# One process: "NAME CPU_NS" per benchmark, the median of its repetitions.
run_once() {
  LD_PRELOAD=$1 "$bench" --benchmark_repetitions=5 --benchmark_enable_random_interleaving=true \
    --benchmark_min_time=0.1 --benchmark_report_aggregates_only=true --benchmark_format=csv \
    2> /dev/null | awk -F, '$1 ~ /_median"$/ {gsub(/"|_median/, "", $1); print $1, $4}'
}
# added FILE BENCH: the traced (or MODE) time minus bare, per round.
added() { awk -v b="$2/bare" -v t="$2/$3" '{ns[$1] = $2} END {print ns[t] - ns[b]}' "$1"; }
median() { sort -g | awk '{v[NR] = $1} END {printf "%.2f", v[int((NR + 1) / 2)]}'; }

echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
plugins=(after)
[ -n "$before" ] && plugins+=(before)
for round in $(seq "$rounds"); do
  run_once "$after" > "$tmp/after.$round"
  [ -n "$before" ] && run_once "$before" > "$tmp/before.$round"
done
echo "load after:  $(cut -d' ' -f1-3 /proc/loadavg)"

printf '%-7s %-12s %9s %12s %18s\n' plugin call "bare ns" "traced adds" "pass-through adds"
for plugin in "${plugins[@]}"; do
  for call in BM_Write BM_MutexPair; do
    bare=$(cat "$tmp/$plugin".* | awk -v b="$call/bare" '$1 == b {print $2}' | median)
    traced=$(for f in "$tmp/$plugin".*; do added "$f" "$call" traced; done | median)
    through=$(for f in "$tmp/$plugin".*; do added "$f" "$call" pass_through; done | median)
    printf '%-7s %-12s %9s %12s %18s\n' "$plugin" "$call" "$bare" "$traced" "$through"
    [ "$plugin" = after ] && echo "$traced" > "$tmp/goal.$call"
  done
done
floor=$(cat "$tmp/after".* | awk '$1 == "BM_TwoTscReads" {print $2}' | median)
[ -n "$floor" ] && echo "two TSC reads: $floor ns"

missed=0
check() {
  if awk -v v="$(cat "$tmp/goal.$1")" -v g="$2" 'BEGIN {exit !(v > g)}'; then
    echo "osrt: a traced $3 adds $(cat "$tmp/goal.$1") ns, over the goal of $2 ns" >&2
    missed=1
  fi
}
check BM_Write "$write_goal" "write() to /dev/null"
check BM_MutexPair "$mutex_goal" "mutex lock/unlock pair"
exit "$missed"
