"""A PyTorch CPU training loop for the torch source's benchmark.

    torch_loop.py STEPS [torch-profiler] [rss]

Prints the loop's own seconds on its last line. With "torch-profiler" the
loop runs inside torch.profiler.profile (CPU activity, record_shapes on),
as its users profile it; with "rss" it prints "rss STEP KIB" every tenth of
the steps: the process's resident memory as the loop goes on.
"""

import sys
import time

import torch
import torch.nn as nn

steps = int(sys.argv[1])
with_torch_profiler = "torch-profiler" in sys.argv[2:]
with_rss = "rss" in sys.argv[2:]
torch.set_num_threads(1)
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 64), nn.ReLU(), nn.Linear(64, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_function = nn.CrossEntropyLoss()
data = torch.randn(32, 64)
labels = torch.randint(0, 10, (32,))


def rss_kib():
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * 4


def loop():
    for step in range(1, steps + 1):
        optimizer.zero_grad()
        loss = loss_function(model(data), labels)
        loss.backward()
        optimizer.step()
        if with_rss and step % max(1, steps // 10) == 0:
            print(f"rss {step} {rss_kib()}", flush=True)


start = time.perf_counter()
if with_torch_profiler:
    from torch.profiler import ProfilerActivity, profile

    with profile(activities=[ProfilerActivity.CPU], record_shapes=True):
        loop()
else:
    loop()
print(f"{time.perf_counter() - start:.6f}")
