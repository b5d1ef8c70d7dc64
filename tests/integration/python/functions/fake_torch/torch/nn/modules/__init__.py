from torch.nn.modules.module import Linear, Module, ReLU, Sequential  # noqa: F401
