#!/usr/bin/env python3
"""Checks the SQLite export of a prof report of NCCL collectives (the pccl
source) and prints one table; exit 1 when a check fails.

usage: check_nccl_report.py REPORT.sqlite NAME CALLS BYTES [COMMUNICATOR_SUFFIX [RANKS]]

Expects CALLS communication slices named NAME, each with `bytes` = BYTES,
on a communicator whose name ends with COMMUNICATOR_SUFFIX (default
"(1 rank)"), and no events dropped. A collective also carries `algorithm`,
`protocol` and `sequence`, CALLS / RANKS distinct sequences (RANKS, default
1: the ranks recorded, each numbering its collectives alike); a
point-to-point operation (Send, Recv) carries `peer`.
"""
import sqlite3
import sys


def main():
    path, name, calls, size = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
    suffix = sys.argv[5] if len(sys.argv) > 5 else "(1 rank)"
    ranks = int(sys.argv[6]) if len(sys.argv) > 6 else 1
    p2p = name in ("Send", "Recv")
    db = sqlite3.connect(path)
    q = lambda sql, *a: db.execute(sql, a).fetchall()

    def arg(set_id, key):
        row = q("""SELECT COALESCE(v.value, a.int_value, a.real_value) FROM args a
                   JOIN strings k ON k.id = a.key_id LEFT JOIN strings v ON v.id = a.string_value_id
                   WHERE a.arg_set_id = ? AND k.value = ?""", set_id, key)
        return row[0][0] if row else None

    rows = q("""SELECT s.arg_set_id, p.value FROM slices s JOIN strings n ON n.id = s.name_id
                JOIN tracks t ON t.id = s.track_id JOIN tracks c ON c.id = t.parent_id
                JOIN strings p ON p.id = c.name_id
                WHERE s.kind = 'communication' AND n.value = ?""", name)
    mine = [r for r in rows if r[1].endswith(suffix)]
    checks = []

    def check(what, expected, found):
        checks.append((what, str(expected), str(found), expected == found))

    check(f"{name} slices on a communicator '... {suffix}'", calls, len(mine))
    check(f"{name} bytes", {str(size)}, {str(arg(r[0], "bytes")) for r in mine} or None)
    if p2p:
        check(f"{name} with its peer", True,
              bool(mine) and all(arg(r[0], "peer") is not None for r in mine))
    else:
        check(f"{name} with algorithm and protocol", True,
              bool(mine) and all(arg(r[0], "algorithm") and arg(r[0], "protocol") for r in mine))
        sequences = [int(arg(r[0], "sequence")) for r in mine if arg(r[0], "sequence") is not None]
        check(f"{name} sequences distinct per rank", calls // ranks, len(set(sequences)))
    dropped = q("SELECT value FROM session WHERE key = 'dropped_events'")
    check("events dropped", "0", str(dropped[0][0]) if dropped else "0")

    width = max(len(c[0]) for c in checks)
    print(f"{'check'.ljust(width)}  {'expected':>16}  {'found':>16}  result")
    for what, expected, found, ok in checks:
        print(f"{what.ljust(width)}  {expected:>16}  {found:>16}  {'pass' if ok else 'FAIL'}")
    return 0 if all(c[3] for c in checks) else 1


if __name__ == "__main__":
    sys.exit(main())
