# A training loop over whichever torch is first on sys.path (the stand-in in
# fake_torch/ or PyTorch): 4 steps of a model, an optimizer defined after
# torch.optim was imported, DataLoader batches, collectives.
import sys

import torch
import torch.distributed as dist
import torch.nn as nn
from torch.utils.data import DataLoader

real = hasattr(torch, "tensor")


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Sequential(nn.Linear(4, 4) if real else nn.Linear(), nn.ReLU())

    def forward(self, x):
        return self.body(x)


class Custom(torch.optim.Optimizer):
    def __init__(self, params):
        if real:
            super().__init__(params, {})

    def step(self, closure=None):
        return None


model = Net()
optimizer = torch.optim.SGD(model.parameters(), lr=0.1) if real else torch.optim.SGD()
custom = Custom(list(model.parameters()) if real else [])
batches = [torch.ones(2, 4) if real else 1 for _ in range(4)]
for batch in DataLoader(batches, batch_size=None) if real else DataLoader(batches):
    out = model(batch)
    if real:
        out.sum().backward()
    optimizer.step()
    custom.step()
if not real:
    dist.all_reduce(1)
    dist.barrier()
print("steps done", file=sys.stderr)
