#!/bin/sh
# Merging and analysing many ranks: writes RANKS synthetic rank reports of
# EVENTS events each (gen_rank_report: kernels and an all-reduce per step,
# rank 1 late to every 10th), then times `prof merge` of all of them and
# `prof stats --report collectives,stragglers` of the merged report, of the
# folder of reports, and of the folder spread over PROCESSES processes by
# mpirun (when there is one), with each one's peak RSS (of the largest
# process under mpirun). Checks the analysis names rank 1 and that every
# way prints the same.
# Usage: run_bench_ranks.sh BUILD_DIR [RANKS] [EVENTS] [PROCESSES]
#        (defaults 64, 1000000, 2)
set -eu
build=$(cd "${1:?build dir}" && pwd)
ranks=${2:-64}
events=${3:-1000000}
processes=${4:-2}
prof="$build/bin/prof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../measure.sh"
# run NAME command...: measures it once and says its wall time and peak RSS.
run() {
  measure "$@"
  echo "$1: $(cat "$tmp/$1.ms") ms, peak RSS $(($(cat "$tmp/$1.rss") / 1024)) MiB"
}

i=0
while [ "$i" -lt "$ranks" ]; do
  mkdir -p "$tmp/ranks"
  "$build/bench/gen_rank_report" "$tmp/ranks/r$i.profrep" "$i" "$events"
  i=$((i + 1))
done
echo "$ranks reports of $events events: $(du -sm "$tmp" | cut -f1) MiB, $(nproc) cores"
run merge "$prof" merge -o "$tmp/all.profrep" $(i=0; while [ "$i" -lt "$ranks" ]; do echo "$tmp/ranks/r$i.profrep"; i=$((i + 1)); done)
echo "merged: $(du -m "$tmp/all.profrep" | cut -f1) MiB"
run stats "$prof" stats --report collectives,stragglers --format csv "$tmp/all.profrep"
grep -q '^# late: world MPI_Allreduce #[0-9]*9: train (rank 1)' "$tmp/stats.out" ||
  { echo "the analysis does not name rank 1 late" >&2; exit 1; }
echo "checked: rank 1 named late"
run folder "$prof" stats --report collectives,stragglers --format csv "$tmp/ranks"
cmp -s "$tmp/stats.out" "$tmp/folder.out" || { echo "the folder's analysis differs" >&2; exit 1; }
if command -v mpirun > /dev/null; then
  # /usr/bin/time around mpirun sees the largest of its children's peaks.
  run spread mpirun --allow-run-as-root --oversubscribe -np "$processes" \
    "$prof" stats --report collectives,stragglers --format csv "$tmp/ranks"
  cmp -s "$tmp/stats.out" "$tmp/spread.out" ||
    { echo "the analysis over $processes processes differs" >&2; exit 1; }
  echo "checked: the folder, alone and over $processes processes, gives the same"
fi
