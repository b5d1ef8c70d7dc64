#!/bin/sh
# `prof stats` against SQLite on the same data: generates a report of SLICES
# device slices (default 5,000,000; gen_stats_report), times
# `prof stats --report gcu-activity` ROUNDS times (default 5), exports the
# report with `prof export --type sqlite` when the sqlite plugin is built and
# times the equivalent GROUP BY in the sqlite3 CLI ROUNDS times, checks both
# give the same numbers, and prints medians, their ratio and peak RSS.
# Usage: run_bench_stats.sh BUILD_DIR [SLICES] [ROUNDS]
set -eu
build=$(cd "${1:?build dir}" && pwd)
slices=${2:-5000000}
rounds=${3:-5}
prof="$build/bin/prof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../measure.sh"

"$build/bench/gen_stats_report" "$tmp/r.profrep" "$slices"
echo "report: $(stat -c %s "$tmp/r.profrep") bytes"
nproc_now=$(nproc)

i=0
while [ "$i" -lt "$rounds" ]; do
  measure prof "$prof" stats --report gcu-activity --format csv "$tmp/r.profrep"
  i=$((i + 1))
done
prof_ms=$(median "$tmp/prof.ms")
printf 'prof stats --report gcu-activity: median %d ms (runs: %s), peak RSS %d MiB, %s cores\n' \
  "$prof_ms" "$(sort -n "$tmp/prof.ms" | tr '\n' ' ')" $(($(max "$tmp/prof.rss") / 1024)) "$nproc_now"

if [ ! -e "$build/lib/prof/plugins/libprof-sqlite.so" ]; then
  echo "sqlite plugin not built ($build/lib/prof/plugins/libprof-sqlite.so): SQLite half skipped"
  exit 0
fi
command -v sqlite3 > /dev/null || { echo "no sqlite3 CLI: SQLite half skipped"; exit 0; }
t0=$(date +%s%N)
"$prof" export --type sqlite -o "$tmp/r.sqlite" "$tmp/r.profrep" > /dev/null
t1=$(date +%s%N)
echo "prof export --type sqlite: $(((t1 - t0) / 1000000)) ms, $(stat -c %s "$tmp/r.sqlite") bytes"

# Device slices by name: what gcu-activity computes. Device-side tracks are
# those with an enclosing device (tracks.device_id); older schemas: by kind.
if sqlite3 "$tmp/r.sqlite" "SELECT device_id FROM tracks LIMIT 1" > /dev/null 2>&1; then
  device_side="t.device_id IS NOT NULL"
else
  device_side="t.kind IN ('device', 'cluster', 'engine')"
fi
query="SELECT st.value, x.calls, x.total, x.mn, x.mx FROM (
  SELECT s.name_id AS name_id, COUNT(*) AS calls, SUM(s.dur) AS total,
         MIN(s.dur) AS mn, MAX(s.dur) AS mx, AVG(s.dur) AS mean
  FROM slices s JOIN tracks t ON t.id = s.track_id
  WHERE $device_side GROUP BY s.name_id) x
JOIN strings st ON st.id = x.name_id ORDER BY x.total DESC;"
i=0
while [ "$i" -lt "$rounds" ]; do
  measure sqlite sqlite3 "$tmp/r.sqlite" "$query"
  i=$((i + 1))
done
sqlite_ms=$(median "$tmp/sqlite.ms")
printf 'sqlite3 GROUP BY:                 median %d ms (runs: %s), peak RSS %d MiB\n' \
  "$sqlite_ms" "$(sort -n "$tmp/sqlite.ms" | tr '\n' ' ')" $(($(max "$tmp/sqlite.rss") / 1024))

# Same rows? prof's CSV: Time(%),Time(ns),Calls,Avg(ns),Min(ns),Max(ns),Name.
tail -n +2 "$tmp/prof.out" | awk -F, '{print $7 "|" $3 "|" $2 "|" $5 "|" $6}' | sort > "$tmp/a"
sort "$tmp/sqlite.out" > "$tmp/b"
if cmp -s "$tmp/a" "$tmp/b"; then
  echo "results agree: $(wc -l < "$tmp/a") names"
else
  echo "RESULTS DIFFER:"
  diff "$tmp/a" "$tmp/b" | head -10
fi
awk -v a="$sqlite_ms" -v b="$prof_ms" 'BEGIN { printf "ratio sqlite3 / prof stats: %.1fx\n", a / (b > 0 ? b : 1) }'
