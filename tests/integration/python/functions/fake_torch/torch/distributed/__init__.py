from torch.distributed.distributed_c10d import *  # noqa: F401,F403
