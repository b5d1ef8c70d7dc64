# Parses a chrome-json trace with Python's json module (any syntax error
# fails) and prints it canonically for the tests: the top-level keys, then
# one line per event, then otherData. Numbers keep their exact text
# (parse_float=str), so "ts":0.500 prints as "0.500".
import json
import sys

with open(sys.argv[1], "rb") as f:
    raw = f.read()
doc = json.loads(raw.decode("utf-8"), parse_float=str)
print("keys " + ",".join(doc.keys()))
print("displayTimeUnit " + doc["displayTimeUnit"])
for event in doc["traceEvents"]:
    print(json.dumps(event, sort_keys=True, ensure_ascii=True))
print("otherData " + json.dumps(doc["otherData"], sort_keys=True, ensure_ascii=True))
