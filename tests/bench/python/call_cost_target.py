# The function call_cost.py calls: traced or not, it does nothing.
def empty():
    return None
