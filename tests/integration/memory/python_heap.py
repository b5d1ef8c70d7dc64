# A Python program under the heap profile: ten 100,000-byte bytearrays kept
# to the end (CPython takes blocks this large from malloc), a thread, a
# forked child; prints "done" and exits 4.
import os
import threading

kept = [bytearray(100_000) for _ in range(10)]
worker = threading.Thread(target=lambda: [bytes(5000) for _ in range(1000)])
worker.start()
worker.join()
child = os.fork()
if child == 0:
    os._exit(0)
os.waitpid(child, 0)
print("done")
raise SystemExit(4)
