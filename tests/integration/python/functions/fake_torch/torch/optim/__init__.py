from torch.optim.optimizer import Optimizer  # noqa: F401
from torch.optim.sgd import SGD  # noqa: F401
