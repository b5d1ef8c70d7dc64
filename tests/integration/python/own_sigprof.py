# A program with a profiler of its own on SIGPROF (setitimer(ITIMER_PROF),
# as cProfile-like samplers do), for the python source's end-to-end test: its
# handler sees only its own timer's signals, and setting SIGPROF back to its
# default does not end it while prof still samples.
import signal
import time

count = 0


def on_prof(signum, frame):
    global count
    count += 1


def spin(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


assert signal.signal(signal.SIGPROF, on_prof) == signal.SIG_DFL
signal.setitimer(signal.ITIMER_PROF, 0.01, 0.01)
spin(0.5)
signal.setitimer(signal.ITIMER_PROF, 0, 0)
assert signal.signal(signal.SIGPROF, signal.SIG_DFL) == on_prof
spin(0.3)
# 0.5 s of CPU at 100 Hz: about 50, not prof's 500 samples on top.
print(f"own handler ran {count} times")
assert 20 <= count <= 80, count
