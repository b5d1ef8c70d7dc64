#!/bin/sh
# The mpi source's cost per intercepted call: mpi_call_loop (MPI_Allreduce
# of one int on MPI_COMM_SELF, timed inside the program) bare and under
# prof --trace mpi, interleaved ROUNDS times; prints each median and the
# cost over bare. Twice: calls back to back (millions a second, more than
# prof drains: many events are dropped, and the dropping path is timed),
# and paced by 1 us of work after each call (what prof keeps up with).
# Usage: run_bench_mpi.sh BUILD_DIR [ROUNDS]
set -eu
build=${1:?build dir}
rounds=${2:-7}
prof=$build/bin/prof
loop=$build/bench/mpi_call_loop
mpirun="mpirun --allow-run-as-root --oversubscribe -np 1"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

ns() { "$@" 2> /dev/null | sed -n 's/^ns_per_call //p'; }
median() { sort -n "$1" | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }
for spin in 0 1000; do
  rm -f "$tmp/bare" "$tmp/traced"
  i=0
  while [ "$i" -lt "$rounds" ]; do
    ns $mpirun "$loop" 200000 "$spin" >> "$tmp/bare"
    ns $mpirun "$prof" --quiet --print-app-log -o "$tmp/r$spin-$i" --trace mpi "$loop" 200000 "$spin" >> "$tmp/traced"
    i=$((i + 1))
  done
  bare=$(median "$tmp/bare")
  traced=$(median "$tmp/traced")
  echo "spin_ns=$spin bare_ns_per_call=$bare traced_ns_per_call=$traced cost_ns=$(echo "$traced $bare" | awk '{printf "%.1f", $1-$2}')"
done
