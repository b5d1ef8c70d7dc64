#!/usr/bin/env python3
"""prof's fixed cost: `true` bare and under prof with a system-scope source
(cpu-util) and with process-scope ones (osrt; gcu activities), interleaved
ROUNDS times; prints each median wall time and its excess over bare.
Usage: run_bench_startup.py BUILD_DIR [ROUNDS]"""
import os
import statistics
import subprocess
import sys
import tempfile
import time

build = sys.argv[1]
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 21
prof = os.path.join(build, "bin", "prof")
cases = {
    "bare": [],
    "cpu-util (system scope)": ["--cpu-utilization"],
    "osrt (process scope)": ["--trace", "osrt"],
    "gcu activities (process scope)": ["--enable-activities", "all"],
}
times = {name: [] for name in cases}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rounds):
        for name, options in cases.items():
            report = os.path.join(tmp, f"r{r}-{len(times[name])}-{hash(name) & 0xffff}")
            cmd = ["true"] if not options else [prof, "--quiet", "-o", report, *options, "true"]
            start = time.perf_counter()
            subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
            times[name].append((time.perf_counter() - start) * 1000)
bare = statistics.median(times["bare"])
print(f"rounds={rounds}")
for name, samples in times.items():
    m = statistics.median(samples)
    extra = "" if name == "bare" else f"  prof's cost {m - bare:6.1f} ms"
    print(f"{name:32s} median {m:6.1f} ms{extra}")
