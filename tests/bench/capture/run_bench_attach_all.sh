#!/usr/bin/env bash
# How far apart the windows of `prof attach --all` open across PROCS waiting
# processes (gcu-train-step started with PROF_MODE=dynamic and the agent):
# prof asks every agent at once and prints when the first and the last
# answered, i.e. had its plugins running. Prints the median and the worst of
# RUNS attaches, each for one second, one report per process.
# Usage: run_bench_attach_all.sh BUILD_DIR [PROCS] [RUNS]
set -euo pipefail
build=$(realpath "${1:?usage: run_bench_attach_all.sh BUILD_DIR [PROCS] [RUNS]}")
procs=${2:-8}
runs=${3:-9}
bin=$build/bin
agent=$build/lib/prof/libprof-agent.so
work=$(mktemp -d)
pids=()
trap 'kill "${pids[@]}" 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$work"' EXIT

for ((rank = 0; rank < procs; rank++)); do
  env PROF_MODE=dynamic LD_PRELOAD="$agent" XDG_RUNTIME_DIR="$work" RANK=$rank WORLD_SIZE=$procs \
    "$bin/gcu-train-step" --steps 100000 --quiet > /dev/null 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do
  for ((i = 0; i < 500; i++)); do [[ -S $work/prof/dynamic-$pid.sock ]] && break; sleep 0.01; done
done

median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
spreads=() afters=()
for ((i = 0; i < runs; i++)); do
  line=$(cd "$work" && env XDG_RUNTIME_DIR="$work" "$bin/prof" attach --all --enable-activities all \
    --duration 1 -o "r%q{RANK}" --force-overwrite | grep 'agents joined within')
  spreads+=("$(sed -E 's/.*within ([0-9.]+) ms.*/\1/' <<< "$line")")
  afters+=("$(sed -E 's/.*\(([0-9.]+) ms after.*/\1/' <<< "$line")")
done
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $procs processes, $runs attaches; $(ls "$work"/r*.profrep | wc -l) reports"
printf 'agents joined within (ms): median %s, worst %s\n' \
  "$(printf '%s\n' "${spreads[@]}" | median)" "$(printf '%s\n' "${spreads[@]}" | sort -n | tail -1)"
printf 'last joined after prof asked (ms): median %s, worst %s\n' \
  "$(printf '%s\n' "${afters[@]}" | median)" "$(printf '%s\n' "${afters[@]}" | sort -n | tail -1)"
