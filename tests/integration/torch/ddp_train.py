"""A DistributedDataParallel training loop on gloo, one process per rank,
started with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT as torchrun would.

    ddp_train.py STEPS [LATE_RANK LATE_STEP DELAY_S]

LATE_RANK waits DELAY_S before the forward pass of step LATE_STEP, so its
gradient all-reduces of that step come last. With TORCH_PROFILER_TRACES=DIR
the loop runs inside torch.profiler (started right after a barrier, as its
users start it on every rank) and each rank writes DIR/rRANK.json; with
TORCH_PROFILER_COUNTS=1 it runs inside torch.profiler too, and prints
"torch.profiler NAME COUNT" for each backend collective torch recorded
(gloo:all_reduce ...). Prints "buckets N" (DDP's
gradient buckets: those of step 1, and those DDP rebuilt for the later
steps) and "step K" for each step.
"""

import os
import sys
import time

import torch
import torch.distributed as dist
import torch.nn as nn

steps = int(sys.argv[1])
late_rank, late_step, delay = (int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])) \
    if len(sys.argv) > 4 else (-1, -1, 0.0)
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
torch.manual_seed(0)
# Layers of 1 MiB of weights, buckets of 1 MiB: several gradient all-reduces a step.
model = nn.Sequential(nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(),
                      nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 10))
ddp = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=1)
optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
loss_function = nn.CrossEntropyLoss()
data = torch.randn(16, 512)
labels = torch.randint(0, 10, (16,))
traces = os.environ.get("TORCH_PROFILER_TRACES")
counts = os.environ.get("TORCH_PROFILER_COUNTS")
profiler = None
if traces or counts:
    from torch.profiler import ProfilerActivity, profile

    dist.barrier()
    profiler = profile(activities=[ProfilerActivity.CPU])
    profiler.__enter__()
for step in range(1, steps + 1):
    optimizer.zero_grad()
    if rank == late_rank and step == late_step:
        time.sleep(delay)
    loss = loss_function(ddp(data), labels)
    loss.backward()
    optimizer.step()
    if profiler is not None:
        profiler.step()
    print(f"step {step}", flush=True)
if profiler is not None:
    profiler.__exit__(None, None, None)
    if traces:
        profiler.export_chrome_trace(os.path.join(traces, f"r{rank}.json"))
    if counts:
        from collections import Counter

        counted = Counter(event.name for event in profiler.events()
                          if event.name.startswith("gloo:"))
        for name, count in sorted(counted.items()):
            print(f"torch.profiler {name} {count}", flush=True)
facts = ddp.logger._get_ddp_logging_data().strs_map
first, rebuilt = (len(facts.get(key, "").split(", ")) for key in ("bucket_sizes", "rebuilt_bucket_sizes"))
print(f"buckets {first} {rebuilt}", flush=True)
dist.barrier()
dist.destroy_process_group()
