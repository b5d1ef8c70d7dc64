#!/bin/sh
# Export throughput, output size and peak memory of every exporter on one
# report of SLICES device slices (gen_stats_report, default 5,000,000),
# beside the native report's own size: `prof export --type T` from the same
# report, ROUNDS times each (default 3), medians.
# Exits 1 when the Perfetto trace takes more than 28 bytes an event (issue 53).
# Usage: [TYPES="perfetto csv"] run_bench_exporters.sh BUILD_DIR [SLICES] [ROUNDS]
set -eu
perfetto_goal_bytes=28
build=$(cd "${1:?build dir}" && pwd)
slices=${2:-5000000}
rounds=${3:-3}
prof="$build/bin/prof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
. "$(dirname "$0")/../measure.sh"

# It prints "N device slices, M events".
events=$("$build/bench/gen_stats_report" "$tmp/r.profrep" "$slices" | sed -n 's/.*slices, \([0-9]*\) events.*/\1/p')
printf '%-12s %10s %12s %10s %10s\n' type ms events/s bytes/event peak-MiB
printf '%-12s %10s %12s %10.2f %10s\n' native - - \
  "$(echo "$(stat -c %s "$tmp/r.profrep") $events" | awk '{print $1/$2}')" -
# TYPES="perfetto" measures one exporter alone.
for type in ${TYPES:-perfetto chrome-json csv folded sqlite}; do
  rm -f "$tmp/export.ms" "$tmp/export.rss"
  i=0
  while [ "$i" -lt "$rounds" ]; do
    rm -rf "$tmp/out"
    mkdir "$tmp/out"
    measure export "$prof" export --type "$type" -o "$tmp/out/x" "$tmp/r.profrep"
    i=$((i + 1))
  done
  ms=$(median "$tmp/export.ms")
  bytes=$(du -sb "$tmp/out" | cut -f1)
  if [ "$type" = perfetto ]; then perfetto_bytes=$(echo "$bytes $events" | awk '{print $1/$2}'); fi
  printf '%-12s %10d %12.0f %10.2f %10.1f\n' "$type" "$ms" \
    "$(echo "$events $ms" | awk '{print $1 / ($2 / 1000)}')" \
    "$(echo "$bytes $events" | awk '{print $1/$2}')" \
    "$(echo "$(median "$tmp/export.rss")" | awk '{print $1/1024}')"
done
if [ -n "${perfetto_bytes:-}" ]; then
  if awk -v b="$perfetto_bytes" -v g="$perfetto_goal_bytes" 'BEGIN {exit !(b > g)}'; then
    echo "goal missed: perfetto takes $perfetto_bytes bytes an event, goal $perfetto_goal_bytes"
    exit 1
  fi
  echo "goal met: perfetto takes $perfetto_bytes bytes an event (goal $perfetto_goal_bytes)"
fi
