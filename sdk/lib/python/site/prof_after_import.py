"""Runs a function of prof's once a module has been imported: by the
module's own finder and loader, before the importer sees the module, so
that prof can wrap or hook what the module defines. Shared by prof's
Python start-up modules (the function trace, the torch source)."""

import sys


def _warn(text):
    sys.stderr.write(f"prof: {text}\n")


def _run(functions, module):
    for function, failure in functions:
        try:
            function(module)
        except Exception as error:  # never break the program's import
            _warn(f"{failure}: {error!r}")


class _LoaderThenRun:
    """The module's own loader; once it has run the module, the functions
    run and the module gets its loader back."""

    def __init__(self, loader, functions):
        self._loader = loader
        self._functions = functions

    def __getattr__(self, attribute):
        return getattr(self._loader, attribute)

    def create_module(self, spec):
        return self._loader.create_module(spec)

    def exec_module(self, module):
        try:
            self._loader.exec_module(module)
        finally:
            module.__loader__ = self._loader
            if getattr(module, "__spec__", None) is not None:
                module.__spec__.loader = self._loader
        _run(self._functions, sys.modules.get(module.__name__, module))


class _AfterImport:
    """First on sys.meta_path: for a module with functions waiting, the spec
    the other finders give, with a loader that runs them after the module."""

    def __init__(self):
        self.waiting = {}

    def find_spec(self, fullname, path=None, target=None):
        functions = self.waiting.get(fullname)
        if not functions:
            return None
        for finder in sys.meta_path:
            find_spec = getattr(finder, "find_spec", None)
            if finder is self or find_spec is None:
                continue
            spec = find_spec(fullname, path, target)
            if spec is not None:
                break
        else:
            return None
        if spec.loader is not None and hasattr(spec.loader, "exec_module"):
            spec.loader = _LoaderThenRun(spec.loader, list(functions))
        return spec


_FINDER = _AfterImport()


def after_import(name, function, failure):
    """function(module) runs once the module `name` is imported: now when
    it is already, and again whenever it is imported anew. An exception it
    raises is said on stderr after `failure` ("prof: FAILURE: error") and
    never reaches the importer."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
    _FINDER.waiting.setdefault(name, []).append((function, failure))
    if name in sys.modules:
        _run([(function, failure)], sys.modules[name])
