#!/usr/bin/env python3
"""Writes the seed corpora of the text fuzz targets from the inputs the unit
tests and configs/ already use:

  yaml_profile        configs/*.yaml and a profile with every section
  activity_filter     the filter strings of tests/unit/activity/filter_test.cpp
  activity_tree_json  the JSON of tests/unit/activity/*json*_test.cpp
  command_line        the argument lists of tests/unit/prof/cli/*_test.cpp
  control_message     one frame per control command

Run from the repository root: tests/fuzz/make_text_seeds.py. Seeds are
named by their content's hash, so running it again adds nothing twice.
(The report seeds come from make_report_seeds.cpp; the shm_region seeds from
a fuzz run, minimized with -merge=1: its input is a script of operations.)
"""
import ast
import glob
import hashlib
import os
import re

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
CORPUS = os.path.join(ROOT, "tests", "fuzz", "corpus")
STRING = r'"(?:[^"\\\n]|\\.)*"'


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


def c_string(literal):
    """The bytes of one C++ string literal (simple escapes only)."""
    return ast.literal_eval(literal).encode("utf-8")


def write(target, data):
    os.makedirs(os.path.join(CORPUS, target), exist_ok=True)
    name = hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(CORPUS, target, name), "wb") as f:
        f.write(data)


def yaml_profile():
    for path in sorted(glob.glob(os.path.join(ROOT, "configs", "*.yaml"))):
        with open(path, "rb") as f:
            write("yaml_profile", f.read())
    write("yaml_profile", b"# prof capture profile\ndescription: one line\noptions:\n"
          b"  cpu-utilization: true\n  utilization-frequency: 50\n  devices: [0, 1]\n"
          b"  print-app-log:\nplugins:\n  cpu-util:\n    frequency: 50\n    memory: off\n"
          b"    scale: 2.5\n  summary: {mode: api, title: \"x\"}\n  trace:\n")


def activity_filter():
    text = read("tests/unit/activity/filter_test.cpp")
    seen = set()
    for call, literal in re.findall(r"(select|error_of)\((" + STRING + r")", text):
        seen.add(c_string(literal))
    for i, filt in enumerate(sorted(seen)):
        kind = b"1" if b"sippmc" in filt.lower() else b"0"  # '1': events, '0': activities
        write("activity_filter", kind + filt)
    write("activity_filter", b"0*/cluster1/*/SIP Busy\n0,1")
    write("activity_filter", b"00/general/operator\n1")


def activity_tree_json():
    for path in ("tests/unit/activity/json_reader_test.cpp", "tests/unit/activity/tree_json_test.cpp"):
        for literal in re.findall(r'R"\((.*?)\)"', read(path), re.S):
            write("activity_tree_json", b"0" + literal.encode("utf-8"))
    device = (b'{"type": "root", "name": "activities", "children": ['
              b'{"type": "device", "name": "Device0", "index": 0, "children": ['
              b'{"type": "cluster", "name": "Cluster0", "children": ['
              b'{"type": "engine", "name": "CDMA0", "children": ['
              b'{"type": "activity", "name": "DMA Busy", "isCheck": true}]}]}]},'
              b'{"type": "api", "name": "Api Trace", "children": ['
              b'{"type": "domain", "name": "RUNTIME", "children": ['
              b'{"type": "activity", "name": "gcuInit", "isCheck": true}]}]}]}')
    write("activity_tree_json", b"0" + device)


def command_line():
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "unit", "prof", "cli", "*_test.cpp"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        for args in re.findall(r"(?:parse|error_of|parse_arguments)\(\{([^{}]*)\}", text):
            literals = re.findall(STRING, args)
            if literals and re.fullmatch(r"\s*(" + STRING + r"\s*,?\s*)*", args):
                write("command_line", b"\0".join(c_string(s) for s in literals))


def control_message():
    for text in (b"start", b"start report-%p", b"stop", b"suspend", b"resume", b"cancel",
                 b"status", b"shutdown"):
        frame = len(text).to_bytes(4, "little") + text
        write("control_message", b"\xff\xff" + frame)  # whole, in one piece
        write("control_message", b"\x00\x02" + frame)  # in pieces of 1 and 3 bytes


if __name__ == "__main__":
    yaml_profile()
    activity_filter()
    activity_tree_json()
    command_line()
    control_message()
