"""200,000 calls of a step mark, timed inside the program: prints the
nanoseconds a call. Usage: step_mark_loop.py PYTHON_SITE bare|ctypes|c
  bare    a Python function that does nothing (the loop and the call)
  ctypes  prof.step() through ctypes (prof.py without _prof_marks)
  c       prof.step() as prof.py gives it: _prof_marks's C function
"""
import sys, time
site = sys.argv[1]
sys.path.insert(0, site)
if sys.argv[2] == "ctypes":
    sys.modules["_prof_marks"] = None  # prof.py falls back on ctypes
if sys.argv[2] != "bare":
    import prof
    mark = prof.step
else:
    mark = lambda: False  # noqa: E731
n = 200000
start = time.perf_counter()
for _ in range(n):
    mark()
took = time.perf_counter() - start
print(f"{took / n * 1e9:.1f} ns a call, {took:.3f} s, returns {mark()}")
