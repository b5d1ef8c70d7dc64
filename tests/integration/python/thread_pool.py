# A thread pool whose three workers each run their own function, for the
# python source's end-to-end test: each thread's samples show its own stack.
import concurrent.futures
import threading
import time

barrier = threading.Barrier(3)


def busy(seconds):
    end = time.thread_time() + seconds
    while time.thread_time() < end:
        sum(range(1000))


def task_alpha():
    barrier.wait()
    busy(0.15)
    return threading.get_native_id()


def task_beta():
    barrier.wait()
    busy(0.15)
    return threading.get_native_id()


def task_gamma():
    barrier.wait()
    busy(0.15)
    return threading.get_native_id()


with concurrent.futures.ThreadPoolExecutor(max_workers=3) as pool:
    futures = [pool.submit(task) for task in (task_alpha, task_beta, task_gamma)]
    tids = [f.result() for f in futures]
assert len(set(tids)) == 3, tids
