"""Writes a real trace of PyTorch's legacy profiler (what Debian's torch
1.13, built without Kineto, writes): two steps of a linear layer's forward
and backward pass and an all-reduce of its gradient on a one-process gloo
group, each step a ProfilerStep#N range.

    python3 make_legacy_trace.py TRACE.json INIT_FILE
"""
import sys

import torch
import torch.distributed as dist
import torch.profiler

trace, init_file = sys.argv[1], sys.argv[2]
dist.init_process_group("gloo", init_method="file://" + init_file, rank=0, world_size=1)
torch.manual_seed(0)
layer = torch.nn.Linear(8, 16)
inputs = torch.randn(2, 8, requires_grad=True)
with torch.profiler.profile(activities=[torch.profiler.ProfilerActivity.CPU],
                            record_shapes=True) as profiler:
    for step in (1, 2):
        with torch.profiler.record_function(f"ProfilerStep#{step}"):
            layer(inputs).sum().backward()
            dist.all_reduce(layer.weight.grad)
profiler.export_chrome_trace(trace)
dist.destroy_process_group()
print("wrote", trace)
