#!/usr/bin/env bash
# What capture control costs the application, medians of N interleaved runs
# of gcu-train-step (same run, so machine noise hits every variant alike):
#   bare                      the program alone
#   dynamic, waiting          started with PROF_MODE=dynamic and the agent, no prof attached
#   prof, collecting          prof --enable-activities all
#   prof, collection off      the same with --profile-from-start off (no start ever comes)
#   sampling                  prof --cpu-profiling-callstack at 10 kHz with DWARF stacks
#   sampling, off             the same with --profile-from-start off: the sampling rests
# Usage: run_bench_capture_control.sh BUILD_DIR [STEPS] [RUNS]
set -euo pipefail
build=${1:?usage: run_bench_capture_control.sh BUILD_DIR [STEPS] [RUNS]}
steps=${2:-8}
runs=${3:-7}
bin=$build/bin
agent=$build/lib/prof/libprof-agent.so
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

ms() { local s e; s=$(date +%s%N); "$@" > /dev/null 2>&1; e=$(date +%s%N); echo $(( (e - s) / 1000000 )); }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }

declare -A times
sampling=(--cpu-profiling-callstack --sampling-frequency 10000 --backtrace dwarf)
for ((i = 0; i < runs; i++)); do
  times[bare]+="$(ms "$bin/gcu-train-step" --steps "$steps" --quiet) "
  times[dynamic]+="$(ms env PROF_MODE=dynamic LD_PRELOAD="$agent" XDG_RUNTIME_DIR="$work" \
    "$bin/gcu-train-step" --steps "$steps" --quiet) "
  times[on]+="$(ms env XDG_RUNTIME_DIR="$work" "$bin/prof" --enable-activities all -o "$work/on" --force-overwrite \
    "$bin/gcu-train-step" --steps "$steps" --quiet) "
  times[off]+="$(ms env XDG_RUNTIME_DIR="$work" "$bin/prof" --enable-activities all \
    --profile-from-start off -o "$work/off" --force-overwrite "$bin/gcu-train-step" --steps "$steps" --quiet) "
  times[sampling]+="$(ms env XDG_RUNTIME_DIR="$work" "$bin/prof" "${sampling[@]}" -o "$work/s" \
    --force-overwrite "$bin/gcu-train-step" --steps "$steps" --quiet) "
  times[sampling_off]+="$(ms env XDG_RUNTIME_DIR="$work" "$bin/prof" "${sampling[@]}" \
    --profile-from-start off -o "$work/so" --force-overwrite "$bin/gcu-train-step" --steps "$steps" --quiet) "
done
bare=$(tr ' ' '\n' <<< "${times[bare]}" | grep . | median)
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); gcu-train-step --steps $steps, medians of $runs"
for variant in bare dynamic on off sampling sampling_off; do
  m=$(tr ' ' '\n' <<< "${times[$variant]}" | grep . | median)
  printf '%-13s %6d ms  %5.3fx\n' "$variant" "$m" "$(echo "$m / $bare" | bc -l)"
done
