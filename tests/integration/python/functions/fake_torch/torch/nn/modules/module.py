class Module:
    def _call_impl(self, *args, **kwargs):
        return self.forward(*args, **kwargs)

    __call__ = _call_impl


class Linear(Module):
    def forward(self, x):
        return x * 2


class ReLU(Module):
    def forward(self, x):
        return max(x, 0)


class Sequential(Module):
    def __init__(self, *layers):
        self.layers = layers

    def forward(self, x):
        for layer in self.layers:
            x = layer(x)
        return x
