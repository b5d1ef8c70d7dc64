class _BaseDataLoaderIter:
    def __init__(self, items):
        self._items = iter(items)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self._items)


class _SingleProcessDataLoaderIter(_BaseDataLoaderIter):
    pass


class DataLoader:
    def __init__(self, items):
        self.items = items

    def __iter__(self):
        return _SingleProcessDataLoaderIter(self.items)
