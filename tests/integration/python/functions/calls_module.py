# Functions traced_calls.py calls: outer(n) calls inner n times.
import time


def inner():
    deadline = time.perf_counter() + 0.002
    while time.perf_counter() < deadline:
        pass


def outer(n):
    for _ in range(n):
        inner()


def fails():
    inner()
    raise ValueError("on purpose")


def recurse(depth):
    return 0 if depth == 0 else 1 + recurse(depth - 1)


def untraced(x):
    return x + 1


class Shapes:
    @staticmethod
    def area(side):
        return side * side

    @classmethod
    def unit(cls):
        return cls.area(1)
