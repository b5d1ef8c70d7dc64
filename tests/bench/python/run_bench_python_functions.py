#!/usr/bin/env python3
"""The function trace's cost (--python-functions-trace), interleaved ROUNDS
times, medians of each program's own time and its ratio to the bare run:
  - torch_train.py (a PyTorch CPU training loop; needs python3-torch) bare,
    with the pytorch set and with the heap profile (--memory-profile, with
    and without its sampled call stacks);
  - cpu_bound.py bare and with a list that names none of its functions
    (only listed functions pay);
  - call_cost.py, a million calls of an empty function, bare, with a list
    that names other functions, and traced: what an unlisted call pays, and
    what a traced call costs.
A tight pure-Python loop's speed depends on where things land in memory:
on CPython 3.11 here, cpu_bound.py runs up to 20% faster or slower when
only the size of its environment changes. So every round gives all its
runs the same environment padding, a random 0-4 KiB, and the medians are
over those layouts rather than of one lucky or unlucky layout. The fastest
run of each is printed too.
Usage: run_bench_python_functions.py BUILD_DIR [ROUNDS] [PYTHON]"""
import json
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
prof = os.path.join(os.path.abspath(build), "bin", "prof")
here = os.path.dirname(os.path.abspath(__file__))
has_torch = subprocess.run([python, "-c", "import torch"], capture_output=True).returncode == 0

with tempfile.TemporaryDirectory() as tmp:
    unrelated = os.path.join(tmp, "unrelated.json")
    with open(unrelated, "w") as f:
        json.dump(["json:dumps", "collections:namedtuple"], f)
    traced = os.path.join(tmp, "traced.json")
    with open(traced, "w") as f:
        json.dump(["call_cost_target:empty"], f)
    trace = "--python-functions-trace"
    cases = {}
    if has_torch:
        cases["torch_train bare"] = ("torch_train.py", None)
        cases["torch_train pytorch set"] = ("torch_train.py", [trace, "pytorch"])
        cases["torch_train memory profile"] = ("torch_train.py", ["--memory-profile"])
        cases["torch_train memory profile, no stacks"] = (
            "torch_train.py", ["--memory-profile", "--plugin", "memory stack-sample-bytes=0"])
    cases["cpu_bound bare"] = ("cpu_bound.py", None)
    cases["cpu_bound unrelated list"] = ("cpu_bound.py", [trace, unrelated])
    cases["call_cost bare"] = ("call_cost.py", None)
    cases["call_cost unrelated list"] = ("call_cost.py", [trace, unrelated])
    cases["call_cost traced"] = ("call_cost.py", [trace, traced])
    work = {name: [] for name in cases}
    for _ in range(rounds):
        env = dict(os.environ, PROF_BENCH_PADDING="x" * random.randrange(4096))
        for index, (name, (program, options)) in enumerate(cases.items()):
            cmd = [python, os.path.join(here, program)]
            if options is not None:
                cmd = [prof, "--quiet", "--print-app-log", "-f", "-o",
                       os.path.join(tmp, f"r{index}"), *options] + cmd
            out = subprocess.run(cmd, capture_output=True, text=True, check=True, cwd=here,
                                 env=env).stdout
            work[name].append(float(out.strip().splitlines()[-1]))

print(f"rounds={rounds} python={python} {time.strftime('%Y-%m-%d')}"
      + ("" if has_torch else " (no PyTorch: torch_train left out)"))
for name in cases:
    base = next(b for b in cases if b.endswith("bare") and name.startswith(b.split()[0]))
    w = statistics.median(work[name])
    ratio = w / statistics.median(work[base])
    fastest = min(work[name])
    print(f"{name:28s} median {w:7.3f} s {ratio:6.3f}x   "
          f"fastest {fastest:7.3f} s {fastest / min(work[base]):6.3f}x")
calls = 1_000_000
extra = statistics.median(work["call_cost traced"]) - statistics.median(work["call_cost bare"])
fastest = min(work["call_cost traced"]) - min(work["call_cost bare"])
print(f"one traced call costs {extra / calls * 1e9:.0f} ns (medians; "
      f"{fastest / calls * 1e9:.0f} ns fastest) more than an untraced one")
