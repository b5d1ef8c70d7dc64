#!/usr/bin/env bash
# prof's memory over a long flight-recorder run: gcu-train-step with every
# GCU activity and CPU utilization, --flight-recorder BOUND; prof's resident
# memory (VmRSS) every INTERVAL seconds, then one prof dump and its report's
# size (gcu-train-step's most steps, 100000, last about an hour). With the bound held, the resident memory levels off once the bound
# is full and stays there.
# Usage: run_soak_flight_recorder.sh BUILD_DIR [SECONDS] [BOUND] [INTERVAL]
#        (default 600 s, 32M, every 30 s; by hand for an hour: 3600)
set -euo pipefail
build=$(realpath "${1:?usage: run_soak_flight_recorder.sh BUILD_DIR [SECONDS] [BOUND] [INTERVAL]}")
seconds=${2:-600}
bound=${3:-32M}
interval=${4:-30}
work=$(mktemp -d)
trap 'kill "$prof_pid" 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$work"' EXIT
cd "$work"
env XDG_RUNTIME_DIR="$work" "$build/bin/prof" --session-new soak --flight-recorder "$bound" \
  --enable-activities all --cpu-utilization -o fr "$build/bin/gcu-train-step" --steps 100000 \
  --quiet > prof.out 2>&1 &
prof_pid=$!
echo "load: $(cut -d' ' -f1-3 /proc/loadavg); --flight-recorder $bound for $seconds s"
# VmRSS, and its parts: prof's own memory (anonymous: the kept events, the
# catalog, malloc's arenas) and the shared rings it maps (shmem).
echo "seconds prof_rss_mib anon_mib shmem_mib"
for ((t = 0; t <= seconds; t += interval)); do
  [[ $t -gt 0 ]] && sleep "$interval"
  if ! sizes=$(awk '/^(VmRSS|RssAnon|RssShmem):/ {printf "%s ", $2}' "/proc/$prof_pid/status" \
    2> /dev/null) || [[ -z $sizes ]]; then
    echo "prof ended early:" >&2
    cat prof.out >&2
    exit 1
  fi
  echo "$t $sizes" | awk '{printf "%7d %12.1f %8.1f %9.1f\n", $1, $2 / 1024, $3 / 1024, $4 / 1024}'
done
env XDG_RUNTIME_DIR="$work" "$build/bin/prof" dump --session soak
ls -l fr.profrep | awk '{printf "dump report: %.1f MiB\n", $5 / 1048576}'
env XDG_RUNTIME_DIR="$work" "$build/bin/prof" shutdown --session soak > /dev/null
wait "$prof_pid" || true
