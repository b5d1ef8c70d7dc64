# A CPU-bound Python program shaped like a training loop, for the python
# source's end-to-end test: nested Python calls, a C library called from
# Python (hashlib), and a second Python thread. Line numbers matter: the
# test expects them.
import hashlib
import sys
import threading
import time


def hash_work(data):
    for _ in range(200):
        hashlib.sha256(data).digest()


def leaf_loop(n):
    total = 0
    for i in range(n):
        total += i * i
    return total


def middle(n):
    return leaf_loop(n)


class Trainer:
    def step(self):
        middle(200_000)
        hash_work(b"x" * 65536)


def worker_thread(until):
    while time.monotonic() < until:
        middle(100_000)


seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0
deadline = time.monotonic() + seconds
helper = threading.Thread(target=worker_thread, args=(deadline,), name="data-worker")
helper.start()
trainer = Trainer()
while time.monotonic() < deadline:
    trainer.step()
helper.join()
