from torch.nn.modules import Linear, Module, ReLU, Sequential  # noqa: F401
