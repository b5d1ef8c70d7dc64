#!/usr/bin/env bash
# What a process pays for waiting for prof (PROF_MODE=dynamic with the agent
# preloaded, also watching a trigger folder), side by side with the bare run:
#   - gcu-train-step (gcusim's training step, marking each step with prof_step());
#   - a PyTorch CPU training loop (3 linear layers, SGD, prof.step() each step).
# Runs alternate bare and waiting, ROUNDS times each; prints the median of the
# per-round ratios of wall time (whole process, start-up included) and of the
# loop's own time (PyTorch). Then counts, over 10 s, how often each of a
# waiting process's threads other than its main one woke, and lists the files
# it wrote.
# Usage: run_bench_always_on.sh BUILD_DIR [ROUNDS]
set -euo pipefail
build=$(realpath "${1:?usage: run_bench_always_on.sh BUILD_DIR [ROUNDS]}")
rounds=${2:-9}
bin=$build/bin
agent=$build/lib/prof/libprof-agent.so
work=$(mktemp -d)
mkdir -p "$work/requests" "$work/cwd" "$work/script"
pids=()
trap 'kill "${pids[@]}" 2> /dev/null || true; wait 2> /dev/null || true; rm -rf "$work"' EXIT
waiting=(env PROF_MODE=dynamic PROF_TRIGGER_DIR="$work/requests" LD_PRELOAD="$agent"
  XDG_RUNTIME_DIR="$work")
bare=(env XDG_RUNTIME_DIR="$work")

cat > "$work/script/loop.py" << 'PY'
import sys, time, torch
try:
    import prof          # on PYTHONPATH through the agent
    step = prof.step
except ImportError:
    step = lambda: False
torch.manual_seed(0)
torch.set_num_threads(1)
model = torch.nn.Sequential(torch.nn.Linear(256, 256), torch.nn.ReLU(),
                            torch.nn.Linear(256, 256), torch.nn.ReLU(),
                            torch.nn.Linear(256, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
x, y = torch.randn(64, 256), torch.randint(0, 10, (64,))
start = time.perf_counter()
for _ in range(int(sys.argv[1])):
    optimizer.zero_grad()
    torch.nn.functional.cross_entropy(model(x), y).backward()
    optimizer.step()
    step()
print(f"loop {time.perf_counter() - start:.6f}")
PY

now() { date +%s%N; }
median() { sort -g | awk '{a[NR]=$1} END {print a[int((NR + 1) / 2)]}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {printf "%.4f\n", a / b}'; }

# One run: prints "WALL_S LOOP_S" (LOOP_S: the program's own figure, else WALL_S).
run() {
  local start out end
  start=$(now)
  out=$(cd "$work/cwd" && "$@" 2> "$work/stderr") || { echo "failed: $* ($(tail -1 "$work/stderr"))" >&2; return 1; }
  end=$(now)
  local wall
  wall=$(awk -v a="$start" -v b="$end" 'BEGIN {printf "%.6f", (b - a) / 1e9}')
  local loop
  loop=$(sed -n 's/^loop //p' <<< "$out")
  echo "$wall ${loop:-$wall}"
}

compare() {
  local name=$1
  shift
  local walls=() loops=() bare_walls=() waiting_walls=()
  for ((i = 0; i < rounds; i++)); do
    read -r bw bl < <(run "${bare[@]}" "$@")
    read -r ww wl < <(run "${waiting[@]}" "$@")
    walls+=("$(ratio "$ww" "$bw")")
    loops+=("$(ratio "$wl" "$bl")")
    bare_walls+=("$bw")
    waiting_walls+=("$ww")
  done
  printf '%-16s bare %.3f s, waiting %.3f s (medians); waiting/bare: wall %s, loop %s (medians of %d rounds)\n' \
    "$name" "$(printf '%s\n' "${bare_walls[@]}" | median)" \
    "$(printf '%s\n' "${waiting_walls[@]}" | median)" \
    "$(printf '%s\n' "${walls[@]}" | median)" "$(printf '%s\n' "${loops[@]}" | median)" "$rounds"
}

echo "load: $(cut -d' ' -f1-3 /proc/loadavg); $(nproc) CPUs"
compare gcu-train-step "$bin/gcu-train-step" --steps 30 --quiet
compare torch-cpu-loop /usr/bin/python3 "$work/script/loop.py" 300

# Wake-ups of the agent's threads (prof-*) in a waiting process.
"${waiting[@]}" "$bin/gcu-train-step" --steps 100000 --quiet > /dev/null 2>&1 &
pid=$!
pids+=("$pid")
sleep 2
switches() {
  for task in /proc/"$pid"/task/*; do
    name=$(cat "$task/comm")
    [[ $name == prof-* ]] || continue
    awk -v key="${task##*/}:$name" '/ctxt_switches/ {n += $2} END {print key, n}' "$task/status"
  done | sort
}
before=$(switches)
sleep 10
after=$(switches)
join <(echo "$before") <(echo "$after") |
  awk '{split($1, k, ":"); printf "agent thread %-14s woke %.1f times a second\n", k[2], ($3 - $2) / 10}'
echo "files written: $(find "$work/cwd" "$work/prof" -type f | wc -l)" \
  "($(find "$work/prof" -type f -printf '%f ' 2> /dev/null))"
