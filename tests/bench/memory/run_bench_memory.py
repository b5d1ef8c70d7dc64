#!/usr/bin/env python3
"""The memory source's cost on a malloc-heavy program (malloc_churn: threads
making small blocks and freeing each at once), bare, under prof
--memory-profile (with its sampled call stacks, and without them) and under
heaptrack (Debian's), interleaved ROUNDS times;
medians of the program's own time and their ratios to bare, and prof's
overhead as a share of heaptrack's. Checks that prof's report holds no
block of the program at exit.
Usage: run_bench_memory.py BUILD_DIR [ROUNDS] [THREADS] [BLOCKS_PER_THREAD]"""
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 5
threads = sys.argv[3] if len(sys.argv) > 3 else "2"
blocks = sys.argv[4] if len(sys.argv) > 4 else "1000000"
prof = os.path.join(build, "bin", "prof")
program = os.path.join(build, "bench", "malloc_churn")
heaptrack = shutil.which("heaptrack")
cases = {"bare": None, "prof --memory-profile": "prof", "prof, no stacks": "prof-sites"}
if heaptrack:
    cases["heaptrack"] = "heaptrack"
work = {name: [] for name in cases}
with tempfile.TemporaryDirectory() as tmp:
    for r in range(rounds):
        for name, tool in cases.items():
            cmd = [program, threads, blocks]
            if tool == "prof":
                cmd = [prof, "--quiet", "--print-app-log", "-f", "--memory-profile", "-o",
                       os.path.join(tmp, "r")] + cmd
            elif tool == "prof-sites":
                cmd = [prof, "--quiet", "--print-app-log", "-f", "--memory-profile", "--plugin",
                       "memory stack-sample-bytes=0", "-o", os.path.join(tmp, "s")] + cmd
            elif tool == "heaptrack":
                cmd = [heaptrack, "-o", os.path.join(tmp, f"h{r}")] + cmd
            out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
            # heaptrack prints its own lines around the program's
            seconds = [line for line in out.splitlines() if line.strip().replace(".", "").isdigit()]
            work[name].append(float(seconds[-1]))
    stats = subprocess.run([prof, "stats", "--report", "memory", "--format", "csv",
                            os.path.join(tmp, "r.profrep")], capture_output=True, text=True).stdout
print(f"{time.strftime('%Y-%m-%d')} rounds={rounds} threads={threads} blocks/thread={blocks}")
bare = statistics.median(work["bare"])
for name in cases:
    w = statistics.median(work[name])
    print(f"{name:24s} median {w:7.3f} s  {w / bare:6.2f}x")
if heaptrack:
    ours = statistics.median(work["prof --memory-profile"]) - bare
    theirs = statistics.median(work["heaptrack"]) - bare
    print(f"prof's overhead is {ours / theirs:.2f} of heaptrack's")
leaks = [line for line in stats.splitlines() if line.startswith("malloc_churn") and ",leak," in line]
print("program blocks live at exit in prof's report:", "none" if not any(
    "churn" in line for line in leaks) else leaks)
