#!/usr/bin/env bash
# The python source under churn, longer than CI runs it: RUNS short runs per
# interpreter of tests/integration/python/churn.py (threads, generators and
# imports that start and end quickly) sampled at 5 kHz; prints each run that
# did not end with 0, and keeps a core file where the kernel writes one.
# Usage: run_stress_python.sh BUILD_DIR [RUNS] [PYTHON...]
set -uo pipefail
build="$(cd "${1:?usage: run_stress_python.sh BUILD_DIR [RUNS] [PYTHON...]}" && pwd)"
runs="${2:-100}"
shift $(( $# >= 2 ? 2 : 1 ))
pythons=("$@")
[ ${#pythons[@]} -gt 0 ] || pythons=(/usr/bin/python3)
here="$(cd "$(dirname "$0")" && pwd)"
program="$here/../../integration/python/churn.py"
work="$(mktemp -d)"
cd "$work"
ulimit -c unlimited
failed=0
for python in "${pythons[@]}"; do
  for run in $(seq 1 "$runs"); do
    timeout 60 "$build/bin/prof" --quiet -f true -s process-tree --sampling-frequency 5000 \
      -o r "$python" "$program"
    status=$?
    if [ "$status" -ne 0 ]; then
      echo "$python run $run: exit $status"
      failed=$((failed + 1))
    fi
  done
  echo "$python: $runs runs, $failed failed so far"
done
echo "work folder (cores, last report): $work"
[ "$failed" -eq 0 ]
