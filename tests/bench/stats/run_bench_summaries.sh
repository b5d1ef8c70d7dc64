#!/bin/sh
# prof stats over many ranks, from the merge and from per-rank summaries:
# for each count of RANKS, writes that many synthetic rank reports of
# EVENTS events each (gen_rank_report with a framework's steps and
# operators; rank 1 late to every 10th all-reduce), then times
# `prof stats --report steps,stragglers,collectives` of the folder
#   merge          --summaries never (the reports merged to a temporary report)
#   make           --summaries always, no summary yet (each report scanned once)
#   reuse          --summaries always, every summary there
#   mpi-merge      the merge path under mpirun -np PROCESSES
#   mpi-make       the summaries made under mpirun -np PROCESSES
# with each one's wall time and peak RSS (of the largest process under
# mpirun). Checks that every way prints the same rows (the steps report's
# critical-path notes need every event: only the merge path has them).
# Usage: run_bench_summaries.sh BUILD_DIR ["RANKS ..."] [EVENTS] [PROCESSES]
#        (defaults "256 1024 4096", 600, 2)
set -eu
build=$(cd "${1:?build dir}" && pwd)
counts=${2:-256 1024 4096}
events=${3:-600}
processes=${4:-2}
prof="$build/bin/prof"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

. "$(dirname "$0")/../measure.sh"
report="--report steps,stragglers,collectives --format csv"
# run NAME command...: measures it once and says its wall time and peak RSS.
run() {
  rm -f "$tmp/$1.ms" "$tmp/$1.rss"
  measure "$@"
  echo "  $1: $(cat "$tmp/$1.ms") ms, peak RSS $(($(cat "$tmp/$1.rss") / 1024)) MiB"
}
# same NAME: its rows are the merge path's, critical-path notes aside; where
# the summaries left collective calls or steps out (over 1024 and 256 a
# rank), it names rank 1 late all the same.
same() {
  if grep -q 'from per-rank summaries:' "$tmp/$1.out"; then
    grep -q '^# late: world MPI_Allreduce #[0-9]*: train (rank 1)' "$tmp/$1.out" ||
      { echo "$1 does not name rank 1 late" >&2; exit 1; }
    return
  fi
  grep -v 'on its critical path\|of it waiting for' "$tmp/merge.out" > "$tmp/expected"
  cmp -s "$tmp/expected" "$tmp/$1.out" || { echo "$1 prints other rows" >&2; exit 1; }
}
mpi="mpirun --allow-run-as-root --oversubscribe -np $processes"

echo "$(nproc) cores, $(date -u +%Y-%m-%d), events per rank: $events"
for ranks in $counts; do
  rm -rf "$tmp/ranks"
  mkdir -p "$tmp/ranks"
  i=0
  while [ "$i" -lt "$ranks" ]; do
    "$build/bench/gen_rank_report" "$tmp/ranks/r$i.profrep" "$i" "$events" framework
    i=$((i + 1))
  done
  echo "$ranks ranks: $(du -sm "$tmp/ranks" | cut -f1) MiB of reports"
  run merge "$prof" stats --summaries never $report "$tmp/ranks"
  grep -q '^# late: world MPI_Allreduce #[0-9]*9: train (rank 1)' "$tmp/merge.out" ||
    { echo "the analysis does not name rank 1 late" >&2; exit 1; }
  run make "$prof" stats --summaries always $report "$tmp/ranks"
  same make
  echo "  summaries: $(cat "$tmp"/ranks/*.summary | wc -c | awk '{printf "%.1f", $1 / 1048576}') MiB"
  run reuse "$prof" stats --summaries always $report "$tmp/ranks"
  same reuse
  if command -v mpirun > /dev/null; then
    run mpi-merge $mpi "$prof" stats --summaries never $report "$tmp/ranks"
    rm -f "$tmp"/ranks/*.summary
    run mpi-make $mpi "$prof" stats --summaries always $report "$tmp/ranks"
    same mpi-make
    same mpi-merge
  fi
done
echo "checked: every way prints the same rows, rank 1 named late"
