# A Python program that spins in its own loop, then runs the program named
# by its arguments (a native one): for the test of a Python program's whole
# tree sampled from inside, the child with native frames.
import subprocess
import sys
import time


def parent_loop(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        sum(range(1000))


parent_loop(0.3)
subprocess.run(sys.argv[1:], check=True)
