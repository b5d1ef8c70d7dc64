"""Imports torch, writes its pid to PID_FILE, then multiplies matrices for
SECONDS: a running program for prof to attach to.

    waits_for_attach.py PID_FILE SECONDS
"""

import os
import sys
import time

import torch

with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
end = time.monotonic() + float(sys.argv[2])
a = torch.randn(64, 64)
while time.monotonic() < end:
    a = torch.mm(a, a).tanh()
print("done")
