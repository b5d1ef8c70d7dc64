# A stand-in for PyTorch's package layout (the classes and functions prof's
# pytorch set traces, where PyTorch 1.13 and 2.x define them), so the set is
# tested where python3-torch is not installed.
from torch import distributed, nn, optim, utils  # noqa: F401
