# Threads, generators and imports that start and end quickly, for the python
# source's end-to-end test: the sampler catches the interpreter mid-change
# (frames pushed and popped, generators relinked, threads born and gone).
import hashlib
import re
import threading


def squares(n):
    for i in range(n):
        yield i * i


def work():
    sum(squares(20000))
    re.compile("a+b*" + str(threading.get_ident()))
    hashlib.sha256(b"x" * 4096).digest()


threads = [threading.Thread(target=work) for _ in range(4)]
for t in threads:
    t.start()
work()
for t in threads:
    t.join()
