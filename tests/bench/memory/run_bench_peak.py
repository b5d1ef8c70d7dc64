#!/usr/bin/env python3
"""The heap's peak, prof against heaptrack (Debian's), on memory-peak-moment:
37 blocks of 1,000 bytes leaked, a 5 MiB block held for a moment, then
CHURN small blocks each freed at once. Runs it bare, under prof
--memory-profile and under heaptrack, interleaved ROUNDS times; prints the
medians of the whole run's time, what each tool added, prof's overhead as a
share of heaptrack's, and the peak and its largest call site as each tool
reports them (heaptrack_print's "PEAK MEMORY CONSUMERS").
Usage: run_bench_peak.py BUILD_DIR [ROUNDS] [CHURN]"""
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

build = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 7
churn = sys.argv[3] if len(sys.argv) > 3 else "3000000"
prof = os.path.join(build, "bin", "prof")
program = [os.path.join(build, "bin", "memory-peak-moment"), churn]
heaptrack = shutil.which("heaptrack")
cases = ["bare", "prof"] + (["heaptrack"] if heaptrack else [])
seconds = {name: [] for name in cases}


def timed(cmd):
    start = time.monotonic()
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return time.monotonic() - start


with tempfile.TemporaryDirectory() as tmp:
    report = os.path.join(tmp, "r")
    for r in range(rounds):
        seconds["bare"].append(timed(program))
        seconds["prof"].append(timed([prof, "--quiet", "-f", "--memory-profile", "-o", report]
                                     + program))
        if heaptrack:
            seconds["heaptrack"].append(timed([heaptrack, "-o", os.path.join(tmp, f"h{r}")]
                                              + program))
    stats = subprocess.run([prof, "stats", "--report", "memory", report + ".profrep"],
                           capture_output=True, text=True, check=True).stdout
    printed = ""
    if heaptrack:
        trace = [f for f in os.listdir(tmp) if f.startswith("h0")][0]
        printed = subprocess.run(["heaptrack_print", os.path.join(tmp, trace)],
                                 capture_output=True, text=True).stdout

print(f"{time.strftime('%Y-%m-%d')} rounds={rounds} churn={churn}")
bare = statistics.median(seconds["bare"])
for name in cases:
    m = statistics.median(seconds[name])
    print(f"{name:10s} median {m:7.3f} s  +{m - bare:6.3f} s  {m / bare:6.2f}x")
if heaptrack:
    ours = statistics.median(seconds["prof"]) - bare
    theirs = statistics.median(seconds["heaptrack"]) - bare
    print(f"prof's overhead is {ours / theirs:.2f} of heaptrack's")
peak = re.search(r"peak (\d+) bytes", stats)
site = re.search(r"call sites at the peak:\n.*\npeak\s+(\d+)\s+-\s+(\d+)\s+(\S+)", stats)
print("prof:      peak", peak.group(1) if peak else "?", "bytes; largest site at it:",
      f"{site.group(3)} {site.group(1)} bytes in {site.group(2)} blocks" if site else "?")
if heaptrack:
    consumers = printed.split("PEAK MEMORY CONSUMERS", 1)[-1].strip().splitlines()
    print("heaptrack:", " ".join(line.strip() for line in consumers[:2]),
          "|", re.search(r"peak heap memory consumption: (\S+)", printed).group(0)
          if "peak heap memory consumption" in printed else "")
