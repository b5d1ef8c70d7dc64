"""A training loop sharded with FSDP2 (fully_shard) on gloo, one process
per rank, started with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT as
torchrun would. Each linear layer is a group of its own: its parameters
are all-gathered before its forward and backward pass, its gradients
reduce-scattered after the backward pass.

    fsdp2_train.py STEPS

The loop runs inside torch.profiler too (CPU activity), which counts the
backend collectives and c10d operators as torch records them: printed at the end as
"torch.profiler NAME COUNT", one line each, then "done".
"""

import os
import sys
from collections import Counter

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.profiler import ProfilerActivity, profile

try:
    from torch.distributed.fsdp import fully_shard
except ImportError:  # before 2.6
    from torch.distributed._composable.fsdp import fully_shard

steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3
dist.init_process_group("gloo", rank=int(os.environ["RANK"]),
                        world_size=int(os.environ["WORLD_SIZE"]))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(128, 128), nn.ReLU(), nn.Linear(128, 128), nn.ReLU(),
                      nn.Linear(128, 10))
for layer in model:
    if isinstance(layer, nn.Linear):
        fully_shard(layer)
fully_shard(model)
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
data = torch.randn(16, 128)
with profile(activities=[ProfilerActivity.CPU]) as profiler:
    for _ in range(steps):
        model(data).sum().backward()
        optimizer.step()
        optimizer.zero_grad()
counts = Counter(event.name for event in profiler.events() if event.name.startswith(("gloo:", "c10d::")))
for name, count in sorted(counts.items()):
    print(f"torch.profiler {name} {count}", flush=True)
dist.barrier()
dist.destroy_process_group()
print("done", flush=True)
