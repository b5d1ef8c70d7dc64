"""Tensors made, kept and dropped inside PyTorch's own profiler with
profile_memory=True; prints, as JSON, what key_averages() says each operator
kept: {name: [calls, memory, self memory]} (bytes)."""
import json
import sys
import time

import torch

def pause():
    # Frees come a millisecond after the last operator: PyTorch's profiler
    # places a free by its microsecond timestamp, so one freed in the same
    # microsecond an operator ends would count in that operator.
    time.sleep(0.001)


with torch.autograd.profiler.profile(profile_memory=True) as profiler:
    a = torch.ones(64, 64)
    b = torch.randn(64, 32)
    kept = []
    for _ in range(5):
        kept.append(torch.mm(a, a))      # kept: 16 KiB each
        doubled = torch.cat([a, a])
        summed = a + a
        product = torch.mm(a, b)
        activated = torch.relu(product)
        pause()
        del doubled, summed, product, activated  # 4 frees each round
        pause()

rows = {e.key: [e.count, e.cpu_memory_usage, e.self_cpu_memory_usage]
        for e in profiler.key_averages()}
json.dump(rows, sys.stdout, sort_keys=True)
print()
