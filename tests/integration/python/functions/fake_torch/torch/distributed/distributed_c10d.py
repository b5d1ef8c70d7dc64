__all__ = ["all_reduce", "barrier"]


def all_reduce(tensor):
    return tensor


def barrier():
    # A collective calling another through this module's own name.
    return all_reduce(0)
