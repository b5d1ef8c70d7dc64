from torch.utils import data  # noqa: F401
