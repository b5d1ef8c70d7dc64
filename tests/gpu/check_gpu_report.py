#!/usr/bin/env python3
"""Checks the SQLite export of gpu_check_sample.cu's prof report against the
program's known shape and prints one table; exit 1 when a check fails.

usage: check_gpu_report.py REPORT.sqlite BARE_SECONDS PROFILED_SECONDS GPU_NAME
"""
import sqlite3
import sys

MIB = 1 << 20


def main():
    path, bare, profiled, gpu = sys.argv[1], float(sys.argv[2]), float(sys.argv[3]), sys.argv[4]
    db = sqlite3.connect(path)
    q = lambda sql, *a: db.execute(sql, a).fetchall()

    def kernels(name):
        return q("""SELECT s.ts, s.end, s.correlation_id, s.arg_set_id FROM slices s
                    JOIN strings n ON n.id = s.name_id
                    WHERE s.kind = 'kernel' AND n.value LIKE ? ORDER BY s.ts""", name + "(%")

    def arg(set_id, key):
        row = q("""SELECT COALESCE(v.value, a.int_value, a.real_value) FROM args a
                   JOIN strings k ON k.id = a.key_id LEFT JOIN strings v ON v.id = a.string_value_id
                   WHERE a.arg_set_id = ? AND k.value = ?""", set_id, key)
        return row[0][0] if row else None

    def copies(kind):
        rows = q("SELECT arg_set_id FROM slices WHERE kind = ?", kind)
        return len(rows), sum(int(arg(r[0], "bytes") or 0) for r in rows)

    checks = []

    def check(what, expected, found):
        checks.append((what, str(expected), str(found), expected == found))

    scale, add, tiny = kernels("scale"), kernels("add"), kernels("tiny")
    check("scale kernels", 10, len(scale))
    check("add kernels", 5, len(add))
    check("tiny kernels (graph nodes)", 12, len(tiny))
    if scale:
        check("scale grid / block", "256x1x1 128x1x1",
              f"{arg(scale[0][3], 'grid')} {arg(scale[0][3], 'block')}")
    if add:
        check("add grid / block", "64x2x1 256x1x1",
              f"{arg(add[0][3], 'grid')} {arg(add[0][3], 'block')}")
    if tiny:
        check("graph nodes carry their node", True, arg(tiny[0][3], "graph_node") is not None)
    if scale and add:
        check("add waits for every scale (event)", True, add[0][0] >= max(s[1] for s in scale))
    check("HtoD copies, bytes", (2, 32 * MIB), copies("memcpy.htod"))
    check("DtoH copies, bytes", (1, 16 * MIB), copies("memcpy.dtoh"))
    check("memsets, bytes", (1, 16 * MIB), copies("memset"))
    launched = {r[0] for r in q("SELECT correlation_id FROM slices WHERE kind = 'runtime-api'")}
    ended = q("""SELECT COUNT(*) FROM flows f WHERE f.phase = 'end' AND f.flow_id IN
                 (SELECT correlation_id FROM slices WHERE kind = 'kernel')""")[0][0]
    check("flows launch -> kernel (at least 15)", True, ended >= 15)
    check("kernel launches traced", True, all(k[2] in launched for k in scale + add))
    ranges = {r[0] for r in q("""SELECT n.value FROM slices s JOIN strings n ON n.id = s.name_id
                                 WHERE s.kind = 'annotation'""")}
    check("NVTX phases", "copies graph kernels readback setup",
          " ".join(sorted(ranges & {"setup", "copies", "kernels", "graph", "readback"})))
    peak = q("""SELECT MAX(c.value) FROM counters c JOIN tracks t ON t.id = c.track_id
                JOIN strings n ON n.id = t.name_id WHERE n.value = 'Memory used'""")[0][0]
    check("device memory peak (MiB)", 80, int(peak / MIB) if peak is not None else None)
    pinned = q("""SELECT COUNT(*) FROM instants i JOIN args a ON a.arg_set_id = i.arg_set_id
                  JOIN strings k ON k.id = a.key_id JOIN strings v ON v.id = a.string_value_id
                  WHERE i.kind = 'memory' AND k.value = 'memory' AND v.value = 'pinned'""")[0][0]
    check("pinned allocation and free", 2, pinned)
    metrics = q("""SELECT COUNT(*) FROM counters c JOIN tracks t ON t.id = c.track_id
                   JOIN strings n ON n.id = t.name_id WHERE n.value = 'GPU utilization'""")[0][0]
    check("GPU utilization samples", True, metrics > 0)
    dropped = q("SELECT value FROM session WHERE key = 'dropped_events'")
    check("events dropped", "0", str(dropped[0][0]) if dropped else "0")  # an INTEGER column

    width = max(len(c[0]) for c in checks)
    print(f"gpu-check on {gpu}")
    print(f"{'check'.ljust(width)}  {'expected':>24}  {'found':>24}  result")
    for what, expected, found, ok in checks:
        print(f"{what.ljust(width)}  {expected:>24}  {found:>24}  {'pass' if ok else 'FAIL'}")
    print(f"{'overhead (profiled / bare wall time)'.ljust(width)}  {'':>24}  "
          f"{profiled / bare:>23.2f}x  ({profiled:.2f} s / {bare:.2f} s)")
    return 0 if all(c[3] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
