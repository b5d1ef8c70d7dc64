# For run_bench_python_functions.py: a million calls of an empty function of
# another module (traced or not); prints the seconds they took.
import sys
import time

from call_cost_target import empty

calls = int(sys.argv[1]) if len(sys.argv) > 1 else 1_000_000
start = time.perf_counter()
for _ in range(calls):
    empty()
print(f"{time.perf_counter() - start:.6f}")
