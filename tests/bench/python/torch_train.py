# A PyTorch CPU training loop (Debian's python3-torch) for
# run_bench_python.py: a two-layer model, forward, backward and SGD steps;
# prints the seconds the steps took (the import is left out).
import sys
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
torch.set_num_threads(1)
model = nn.Sequential(nn.Linear(256, 512), nn.ReLU(), nn.Linear(512, 10))
optimizer = torch.optim.SGD(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
data = torch.randn(64, 256)
target = torch.randint(0, 10, (64,))


def train_step():
    optimizer.zero_grad()
    loss = loss_fn(model(data), target)
    loss.backward()
    optimizer.step()
    return loss


start = time.perf_counter()
for _ in range(int(sys.argv[1]) if len(sys.argv) > 1 else 200):
    train_step()
print(f"{time.perf_counter() - start:.6f}")
