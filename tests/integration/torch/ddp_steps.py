"""A DistributedDataParallel training loop on gloo that runs until told to
stop, marking each step with prof.step(): a long job for prof to attach to
hours in. Started as torchrun would start a rank (RANK, WORLD_SIZE,
MASTER_ADDR, MASTER_PORT), with prof's agent waiting (PROF_MODE=dynamic).

    ddp_steps.py STOP_FILE [MAX_SECONDS [STALL_FILE]]

Every 10 steps rank 0 broadcasts whether STOP_FILE exists (or MAX_SECONDS,
default 300, passed), so all ranks stop after the same step; each rank
prints "step K" every 10 steps. Once STALL_FILE exists, rank 1 stops in
stall() before its next step until STOP_FILE exists, and rank 0 waits in
that step's gradient all-reduce: a hung job.
"""

import os
import sys
import time

import prof
import torch
import torch.distributed as dist
import torch.nn as nn

stop_file = sys.argv[1]
max_seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 300.0
stall_file = sys.argv[3] if len(sys.argv) > 3 else None
rank = int(os.environ["RANK"])
dist.init_process_group("gloo", rank=rank, world_size=int(os.environ["WORLD_SIZE"]))
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(256, 256), nn.ReLU(), nn.Linear(256, 256), nn.ReLU(),
                      nn.Linear(256, 10))
ddp = nn.parallel.DistributedDataParallel(model, bucket_cap_mb=1)
optimizer = torch.optim.SGD(ddp.parameters(), lr=0.01)
loss_function = nn.CrossEntropyLoss()
data = torch.randn(16, 256)
labels = torch.randint(0, 10, (16,))


def stall():
    print(f"rank {rank} stalls in step {step}", flush=True)
    while not os.path.exists(stop_file) and time.monotonic() - start < max_seconds:
        time.sleep(0.05)


start = time.monotonic()
step = 0
while True:
    step += 1
    if rank == 1 and stall_file and os.path.exists(stall_file):
        stall()
        stall_file = None
    optimizer.zero_grad()
    loss_function(ddp(data), labels).backward()
    optimizer.step()
    prof.step()
    if step % 10 == 0:
        print(f"step {step}", flush=True)
        stop = torch.tensor([0])
        if rank == 0:
            stop[0] = int(os.path.exists(stop_file) or time.monotonic() - start > max_seconds)
        dist.broadcast(stop, 0)
        if stop.item():
            break
dist.destroy_process_group()
