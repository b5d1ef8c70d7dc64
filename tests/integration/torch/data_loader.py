"""A DataLoader with two worker processes (forked), each making batches
with torch operators, and the main process summing them."""

import torch
from torch.utils.data import DataLoader, Dataset


class Noise(Dataset):
    def __len__(self):
        return 64

    def __getitem__(self, index):
        return torch.randn(8) * 2 + 1


if __name__ == "__main__":
    total = 0.0
    for batch in DataLoader(Noise(), batch_size=8, num_workers=2):
        total += float(batch.sum())
    print("batches done")
