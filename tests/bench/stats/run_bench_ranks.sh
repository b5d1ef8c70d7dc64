#!/bin/sh
# Merging and analysing many ranks: writes RANKS synthetic rank reports of
# EVENTS events each (gen_rank_report: kernels and an all-reduce per step,
# rank 1 late to every 10th), then times `prof merge` of all of them and
# `prof stats --report collectives,stragglers` of the merged report, with
# each one's peak RSS. Checks the analysis names rank 1.
# Usage: run_bench_ranks.sh BUILD_DIR [RANKS] [EVENTS]   (defaults 64, 1000000)
set -eu
build=$(cd "${1:?build dir}" && pwd)
ranks=${2:-64}
events=${3:-1000000}
prof="$build/bin/prof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# run NAME command...: wall ms and peak RSS (MiB) of the command.
run() {
  name=$1
  shift
  t0=$(date +%s%N)
  /usr/bin/time -v -o "$tmp/time.txt" "$@" > "$tmp/$name.out"
  t1=$(date +%s%N)
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' "$tmp/time.txt")
  echo "$name: $(((t1 - t0) / 1000000)) ms, peak RSS $((rss / 1024)) MiB"
}

i=0
while [ "$i" -lt "$ranks" ]; do
  "$build/bench/gen_rank_report" "$tmp/r$i.profrep" "$i" "$events"
  i=$((i + 1))
done
echo "$ranks reports of $events events: $(du -sm "$tmp" | cut -f1) MiB, $(nproc) cores"
run merge "$prof" merge -o "$tmp/all.profrep" $(i=0; while [ "$i" -lt "$ranks" ]; do echo "$tmp/r$i.profrep"; i=$((i + 1)); done)
echo "merged: $(du -m "$tmp/all.profrep" | cut -f1) MiB"
run stats "$prof" stats --report collectives,stragglers --format csv "$tmp/all.profrep"
grep -q '^# late: world MPI_Allreduce #[0-9]*9: train (rank 1)' "$tmp/stats.out" ||
  { echo "the analysis does not name rank 1 late" >&2; exit 1; }
echo "checked: rank 1 named late"
