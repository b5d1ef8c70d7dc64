"""Imports torch, writes its pid to PID_FILE, then multiplies matrices until
STOP_FILE exists (two minutes at most): a running program for prof to
attach to, however long a loaded machine takes to get there.

    waits_for_attach.py PID_FILE STOP_FILE
"""

import os
import sys
import time

import torch

with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(str(os.getpid()))
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
end = time.monotonic() + 120
a = torch.randn(64, 64)
while not os.path.exists(sys.argv[2]) and time.monotonic() < end:
    a = torch.mm(a, a).tanh()
print("done")
