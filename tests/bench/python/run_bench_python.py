#!/usr/bin/env python3
"""The python source's cost on a CPU-bound Python program: the program bare,
under prof sampling it at 1 kHz with Python frames (-s process-tree
--sampling-frequency 1000: the python source samples the Python program's
whole tree, cpu-perf keeps thread states), the same with kernel frames (which
only cpu-perf takes, so both sample: two timers per thread), with the python
source alone (--python-sampling true), and with cpu-perf alone
(--python-sampling false) for reference; beside them signal_floor, a C loop bare and with an empty
SIGPROF handler at 1 kHz of its CPU time (the machine's price of the timer
and signal, which every such sampler pays). Interleaved ROUNDS times; prints
the median of each program's own time (the work, without prof's start and
end) and of the whole command, and their ratios to bare. Each round runs the
cases in its own random order, so that no case always follows another.
Usage: run_bench_python.py BUILD_DIR [ROUNDS] [PYTHON] [PROGRAM]
PROGRAM: cpu_bound.py (default) or another that prints its own seconds last,
e.g. torch_train.py (needs python3-torch)."""
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 9
python = sys.argv[3] if len(sys.argv) > 3 else "/usr/bin/python3"
prof = os.path.join(build, "bin", "prof")
here = os.path.dirname(os.path.abspath(__file__))
program = os.path.join(here, sys.argv[4] if len(sys.argv) > 4 else "cpu_bound.py")
sampling = ["-s", "process-tree", "--sampling-frequency", "1000"]
cases = {
    "bare": None,
    "python frames at 1 kHz": sampling,
    "with kernel frames": sampling + ["--kernel-callstack"],
    "python source alone": ["--python-sampling", "true", "--sampling-frequency", "1000"],
    "cpu-perf alone at 1 kHz": sampling + ["--python-sampling", "false"],
}
floor = os.path.join(build, "bench", "signal_floor")
cases["signal floor: C loop bare"] = [floor]
cases["signal floor: 1 kHz SIGPROF"] = [floor, "1000"]
work = {name: [] for name in cases}
whole = {name: [] for name in cases}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rounds):
        order = list(enumerate(cases.items()))
        random.Random(r).shuffle(order)
        for index, (name, options) in order:
            cmd = [python, program]
            if name.startswith("signal floor"):
                cmd, options = options, None
            elif options is not None:
                cmd = [prof, "--quiet", "--print-app-log", "-f", "-o", os.path.join(tmp, f"r{index}"), *options] + cmd
            start = time.perf_counter()
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            whole[name].append(time.perf_counter() - start)
            work[name].append(float(out.strip().splitlines()[-1]))
print(f"rounds={rounds} python={python} program={os.path.basename(program)}")
for name in cases:
    base = "signal floor: C loop bare" if name.startswith("signal floor") else "bare"
    bare_work = statistics.median(work[base])
    bare_whole = statistics.median(whole[base])
    w = statistics.median(work[name])
    t = statistics.median(whole[name])
    print(f"{name:26s} work {w:7.3f} s ({w / bare_work:5.3f}x)  "
          f"whole {t:7.3f} s ({t / bare_whole:5.3f}x)")
