class Optimizer:
    def step(self):
        raise NotImplementedError
