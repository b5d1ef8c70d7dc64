# Known shares of CPU time for the python source's end-to-end test:
# hot_loop 70%, cold_loop 20%, the rest 10%, each spinning on the thread's
# own CPU clock in ten rounds.
import time


def spin(seconds):
    end = time.thread_time() + seconds
    total = 0
    while time.thread_time() < end:
        for i in range(1000):
            total += i
    return total


def hot_loop():
    return spin(0.07)


def cold_loop():
    return spin(0.02)


def other_loop():
    return spin(0.01)


for _ in range(10):
    hot_loop()
    cold_loop()
    other_loop()
