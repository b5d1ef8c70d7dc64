"""A model compiled with torch.compile (Inductor on the CPU), run a few
steps: Inductor generates C++ kernels that fuse its operators.

    compiled_model.py [STEPS]

Prints "done" at the end; needs PyTorch 2.x and a C++ compiler.
"""

import os
import sys

os.environ.setdefault("TORCHINDUCTOR_COMPILE_THREADS", "1")  # no pool of compile workers

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64), nn.Tanh(),
                      nn.Linear(64, 8))
compiled = torch.compile(model)
data = torch.randn(32, 64)
with torch.no_grad():
    for _ in range(steps):
        compiled(data).sum()
print("done", flush=True)
