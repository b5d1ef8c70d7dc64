#!/usr/bin/env python3
"""Where prof's fixed cost goes: `prof --quiet -o R OPTIONS true` under
`perf trace` (process events only: exec, fork, exit), ROUNDS times; prints
the median of each phase: prof until the application's process exists, the
application held at the gate, the application from exec to exit (bare
`true`, and `true` with the agent and osrt preloaded but no capture, beside
it), and prof after the application ended. perf trace adds about 2 ms to
the whole; the phases are for comparing with one another.
Usage: run_startup_phases.py BUILD_DIR [ROUNDS] [OPTIONS...]
       (default 21 rounds, --trace osrt)"""
import os
import re
import statistics
import subprocess
import sys
import tempfile

if len(sys.argv) < 2:
    sys.exit(__doc__)
build = os.path.abspath(sys.argv[1])
rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 21
options = sys.argv[3:] or ["--trace", "osrt"]
prof = os.path.join(build, "bin", "prof")
agent = os.path.join(build, "lib", "prof", "libprof-agent.so")
osrt = os.path.join(build, "lib", "prof", "plugins", "libprof-osrt.so")
EVENT = re.compile(r"^\s*([0-9.]+) (\S+)/(\d+) sched:(sched_process_\w+)\((.*)\)$")


def events(command):
    traced = subprocess.run(
        ["perf", "trace", "-f", "--no-syscalls", "-e",
         "sched:sched_process_exec,sched:sched_process_fork,sched:sched_process_exit", "--"]
        + command, capture_output=True, text=True)
    found = []
    for line in traced.stderr.splitlines():
        match = EVENT.match(line)
        if match:
            found.append((float(match[1]), match[2], match[4], match[5]))
    return found


def app_span(env):
    """Exec to exit of `true` started by env (its second exec)."""
    spans = []
    for _ in range(rounds):
        found = events(["env"] + env + ["true"])
        execs = [t for t, _, name, _ in found if name == "sched_process_exec"]
        exits = [t for t, _, name, _ in found if name == "sched_process_exit"]
        if len(execs) >= 2 and exits:
            spans.append(exits[-1] - execs[-1])
    return statistics.median(spans)


phases = {"until the application's process exists": [], "the application held at the gate": [],
          "the application, exec to exit": [], "prof after the application ended": [],
          "in all": []}
with tempfile.TemporaryDirectory() as work:
    for i in range(rounds):
        report = os.path.join(work, f"r{i}")
        at = {}
        for ts, comm, name, detail in events([prof, "--quiet", "-o", report, *options, "true"]):
            if name == "sched_process_fork":
                at.setdefault("fork", ts)
            elif name == "sched_process_exec" and "/true" in detail:
                at.setdefault("exec", ts)
            elif name == "sched_process_exit" and comm.startswith("true"):
                at["exit"] = ts
            elif name == "sched_process_exit" and "group_dead: 1" in detail:
                at["end"] = ts
        if len(at) < 4:
            continue
        phases["until the application's process exists"].append(at["fork"])
        phases["the application held at the gate"].append(at["exec"] - at["fork"])
        phases["the application, exec to exit"].append(at["exit"] - at["exec"])
        phases["prof after the application ended"].append(at["end"] - at["exit"])
        phases["in all"].append(at["end"])
if not phases["in all"]:
    sys.exit("run_startup_phases.py: perf trace saw no capture (is perf installed and allowed?)")
print(f"prof --quiet -o R {' '.join(options)} true: {len(phases['in all'])} runs, medians")
for name, values in phases.items():
    print(f"  {name:42s} {statistics.median(values):6.2f} ms")
print(f"  {'true alone, exec to exit':42s} {app_span([]):6.2f} ms")
print(f"  {'true with agent and osrt, no capture':42s} "
      f"{app_span(['LD_PRELOAD=' + agent + ':' + osrt]):6.2f} ms")
