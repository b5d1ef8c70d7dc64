#!/bin/sh
# prof's own peak memory over captures of different lengths: a peak that
# does not grow with the length is the goal. prof's VmHWM is read from /proc
# while it runs (the application's memory is not in it).
#   all: every source on (gcu activities, osrt, cpu-perf with DWARF stacks
#        at 1 kHz, cpu-util, memory-util, nic) on gcu-train-step sized to
#        each length;
#   cpu: cpu-perf alone, DWARF stacks at 10 kHz, on two busy threads.
# Usage: run_soak_memory.sh BUILD_DIR all|cpu [SECONDS ...]   (default: 10 60)
set -eu
build=${1:?build dir}
mode=${2:?all or cpu}
shift 2
[ "$#" -gt 0 ] || set -- 10 60
prof=$build/bin/prof
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

case $mode in
all)
  app=$build/bin/gcu-train-step
  # Steps per second of the bare program, to size each run.
  start=$(date +%s%N)
  "$app" --steps 40 --quiet
  ms_per_step=$((($(date +%s%N) - start) / 40000000))
  [ "$ms_per_step" -gt 0 ] || ms_per_step=1
  ;;
cpu) ;;
*) echo "run_soak_memory.sh: mode '$mode': expected all or cpu" >&2; exit 2 ;;
esac

echo "mode seconds wall_s prof_peak_mib report_kib"
for seconds in "$@"; do
  report=$tmp/soak$seconds
  if [ "$mode" = all ]; then
    set -- --enable-activities all --trace osrt -s process-tree --sampling-frequency 1000 \
      -b dwarf --cpu-utilization --memory-utilization --nic-metrics true \
      "$app" --steps $((seconds * 1000 / ms_per_step)) --quiet
  else
    set -- --cpu-profiling-callstack --sampling-frequency 10000 -b dwarf \
      "$build/bin/prof-workload" --threads 2 --seconds "$seconds" --quiet
  fi
  start=$(date +%s%N)
  "$prof" --quiet -o "$report" "$@" > "$tmp/out" 2>&1 &
  pid=$!
  peak=0
  polls=0
  while kill -0 "$pid" 2> /dev/null; do
    hwm=$(awk '/^VmHWM:/ {print $2}' "/proc/$pid/status" 2> /dev/null || true)
    [ -n "$hwm" ] && [ "$hwm" -gt "$peak" ] && peak=$hwm
    # Where prof's memory is, every 2 s: the last whole view is printed.
    polls=$((polls + 1))
    if [ $((polls % 10)) -eq 0 ] && cp "/proc/$pid/smaps" "$tmp/smaps.new" 2> /dev/null; then
      mv "$tmp/smaps.new" "$tmp/smaps"
    fi
    sleep 0.2
  done
  wait "$pid" || { cat "$tmp/out"; exit 1; }
  wall=$((($(date +%s%N) - start) / 1000000))
  echo "$mode $seconds $((wall / 1000)).$((wall % 1000 / 100)) $((peak / 1024)) \
$(($(stat -c %s "$report.profrep") / 1024))"
  sed 's/^/  /' "$tmp/out"
  if [ -f "$tmp/smaps" ]; then
    echo "  resident near the end (MiB): shared region, anonymous (rings, heaps), files"
    awk '/^[0-9a-f]+-[0-9a-f]+ / { kind = $6 ~ /^\/dev\/shm\// ? "shared-region" : $6 == "" || $6 ~ /^\[/ ? "anonymous" : "files" }
         /^Rss:/ { rss[kind] += $2 }
         END { for (k in rss) printf "    %-14s %7.1f\n", k, rss[k] / 1024 }' "$tmp/smaps"
    echo "  the largest mappings (MiB resident of MiB mapped):"
    awk '/^[0-9a-f]+-[0-9a-f]+ / { name = $6 == "" ? "[anonymous]" : $6 }
         /^Size:/ { size = $2 } /^Rss:/ { printf "%9.1f %9.1f %s\n", $2 / 1024, size / 1024, name }' \
      "$tmp/smaps" | sort -rn | head -8 | sed 's/^/  /'

    rm -f "$tmp/smaps"
  fi
done
