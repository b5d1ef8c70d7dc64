# A Python program under the heap profile: ten 100,000-byte bytearrays and
# four of 4 MiB (from hold_buffers) kept to the end (CPython takes blocks this
# large from malloc), a thread, a forked child; prints "done" and exits 4.
import os
import threading
import time


def hold_buffers():
    buffers = []
    for _ in range(4):
        buffers.append(bytearray(4 << 20))
    return buffers


kept = [bytearray(100_000) for _ in range(10)]
buffers = hold_buffers()
time.sleep(0.1)  # the memory source's worker (100 Hz) samples the heap with them
worker = threading.Thread(target=lambda: [bytes(5000) for _ in range(1000)])
worker.start()
worker.join()
child = os.fork()
if child == 0:
    os._exit(0)
os.waitpid(child, 0)
print("done")
raise SystemExit(4)
