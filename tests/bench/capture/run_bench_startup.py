#!/usr/bin/env python3
"""prof's fixed cost: `true` bare and under prof with a system-scope source
(cpu-util) and with process-scope ones (osrt; gcu activities), interleaved
ROUNDS times; prints each median wall time and its excess over bare, and
the median CPU time of the whole process tree (user + system: on a loaded
machine it moves less than the wall time).
With --against OTHER, the same captures by OTHER's prof (another build or
install tree, e.g. a copy of build/ before a change) join the rounds,
interleaved, so that the two are compared under the same load.
Exits 1 when BUILD_DIR's osrt case costs more than GOAL_MS over bare
(issue 53: 5 ms).
Usage: run_bench_startup.py BUILD_DIR [ROUNDS] [--against OTHER_DIR]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

GOAL_MS = 5.0  # prof's cost of `prof --trace osrt true` over bare `true`
GOAL_CASE = "osrt (process scope)"

args = sys.argv[1:]
against = None
if "--against" in args:
    at = args.index("--against")
    if at + 1 >= len(args):
        sys.exit("run_bench_startup.py: --against needs a build or install folder")
    against = args[at + 1]
    del args[at : at + 2]
if not args:
    sys.exit(__doc__)
build = args[0]
rounds = int(args[1]) if len(args) > 1 else 21
sources = {
    "cpu-util (system scope)": ["--cpu-utilization"],
    "osrt (process scope)": ["--trace", "osrt"],
    "gcu activities (process scope)": ["--enable-activities", "all"],
}
builds = [("", build)] + ([("  " + against + ": ", against)] if against else [])
cases = {"bare": ["true"]}
for label, folder in builds:
    prof = os.path.join(folder, "bin", "prof")
    if not os.access(prof, os.X_OK):
        sys.exit(f"run_bench_startup.py: no prof in {folder}/bin")
    for name, options in sources.items():
        cases[label + name] = [prof, "--quiet", "-o", None, *options, "true"]
times = {name: [] for name in cases}
cpu = {name: [] for name in cases}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rounds):
        for i, (name, cmd) in enumerate(cases.items()):
            cmd = [os.path.join(tmp, f"r{r}-{i}") if part is None else part for part in cmd]
            start = time.perf_counter()
            child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            _, status, usage = os.wait4(child.pid, 0)
            times[name].append((time.perf_counter() - start) * 1000)
            cpu[name].append((usage.ru_utime + usage.ru_stime) * 1000)
            if os.waitstatus_to_exitcode(status) != 0:
                sys.exit(f"run_bench_startup.py: {' '.join(cmd)} failed")
bare = statistics.median(times["bare"])
print(f"rounds={rounds}")
for name, samples in times.items():
    m = statistics.median(samples)
    extra = "" if name == "bare" else f"  prof's cost {m - bare:6.1f} ms"
    print(f"{name:48s} median {m:6.1f} ms{extra:24s}  cpu {statistics.median(cpu[name]):5.1f} ms")
cost = statistics.median(times[GOAL_CASE]) - bare
if cost > GOAL_MS:
    print(f"goal missed: {GOAL_CASE} costs {cost:.1f} ms over bare, goal {GOAL_MS:.1f} ms")
    sys.exit(1)
print(f"goal met: {GOAL_CASE} costs {cost:.1f} ms over bare (goal {GOAL_MS:.1f} ms)")
