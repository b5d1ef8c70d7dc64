# A CPU-bound Python program for run_bench_python.py: a fixed amount of
# pure-Python work in nested calls; prints the seconds the work took.
import sys
import time


def inner(n):
    total = 0
    for i in range(n):
        total += i % 7
    return total


def outer(rounds, n):
    return sum(inner(n) for _ in range(rounds))


start = time.perf_counter()
outer(int(sys.argv[1]) if len(sys.argv) > 1 else 200, 200_000)
print(f"{time.perf_counter() - start:.6f}")
