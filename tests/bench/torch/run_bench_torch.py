#!/usr/bin/env python3
"""The torch source's cost beside PyTorch's own profiler, on the same CPU
training loop (torch_loop.py), interleaved ROUNDS times: bare, under
`prof --pytorch=autograd-shapes-nvtx` (operators with shapes, steps) and
inside torch.profiler.profile(activities=[CPU], record_shapes=True). Each
run's own loop time; medians, and each profiler's added time over the bare
loop. Then the memory of one long run of each (STEPS_LONG steps): the
process's RSS every tenth of the way. prof streams events out of the
process; torch.profiler keeps them all until the end.
Usage: run_bench_torch.py BUILD_DIR [ROUNDS] [STEPS] [STEPS_LONG] [PYTHON]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
steps = int(sys.argv[3]) if len(sys.argv) > 3 else 300
steps_long = int(sys.argv[4]) if len(sys.argv) > 4 else 10000
python = sys.argv[5] if len(sys.argv) > 5 else "/usr/bin/python3"
prof = os.path.join(os.path.abspath(build), "bin", "prof")
loop = os.path.join(os.path.dirname(os.path.abspath(__file__)), "torch_loop.py")


def run(kind, count, *extra):
    cmd = [python, loop, str(count), *extra]
    if kind == "torch profiler":
        cmd.append("torch-profiler")
    with tempfile.TemporaryDirectory() as tmp:
        if kind == "prof":
            cmd = [prof, "--quiet", "--print-app-log", "-o", os.path.join(tmp, "r"),
                   "--pytorch=autograd-shapes-nvtx"] + cmd
        out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    return out.strip().splitlines()


kinds = ["bare", "prof", "torch profiler"]
times = {kind: [] for kind in kinds}
run("prof", 1)  # a torch prof was not built with gets its bridge built once: not timed
for _ in range(rounds):
    for kind in kinds:
        times[kind].append(float(run(kind, steps)[-1]))

print(f"{time.strftime('%Y-%m-%d %H:%M')} rounds={rounds} steps={steps} python={python} "
      f"nproc={os.cpu_count()}")
bare = statistics.median(times["bare"])
for kind in kinds:
    median = statistics.median(times[kind])
    print(f"{kind:15s} median {median:7.3f} s  {median / bare:6.3f}x  "
          f"added {median - bare:7.3f} s  ({(median - bare) / steps * 1e3:.3f} ms a step)")
added = {kind: statistics.median(times[kind]) - bare for kind in kinds[1:]}
print(f"prof's added time / torch.profiler's: {added['prof'] / added['torch profiler']:.3f}")

print(f"RSS over {steps_long} steps (KiB):")
for kind in kinds:
    lines = run(kind, steps_long, "rss")
    rss = [line.split() for line in lines if line.startswith("rss ")]
    print(f"{kind:15s} " + " ".join(f"{int(kib):7d}" for _, _, kib in rss)
          + f"   grew {int(rss[-1][2]) - int(rss[0][2])} KiB from step {rss[0][1]}")
