"""prof's Python function trace (prof --python-functions-trace).

Each call of a listed function becomes an annotation range on its thread, in
the python plugin that prof preloads (through _prof_python_ranges). A listed
function is wrapped when its module has been imported, before the importer
sees the module (prof_after_import), so only listed functions pay; the program's other calls run
as before.

The list comes from the plugin's option `functions`: entries separated by
';', each "pytorch" (the built-in set), "MODULE:QUALNAME" (one function, or
a method as Class.method) or "MODULE:*" (the module's functions and its
classes' methods), with an optional "@DOMAIN".
"""

import functools
import os
import sys

import _prof_python_ranges as _ranges
import prof_after_import

_TRACED = "__prof_traced__"


def _warn(text):
    sys.stderr.write(f"prof: {text}\n")


def _traced(function, index):
    """`function` wrapped so that each call is the range `index`."""
    enter, leave = _ranges.enter, _ranges.leave

    @functools.wraps(function)
    def prof_traced(*args, **kwargs):
        enter(index)
        try:
            return function(*args, **kwargs)
        finally:
            leave(index)

    setattr(prof_traced, _TRACED, True)
    return prof_traced


def _trace_attribute(owner, attribute, name, domain):
    """Wraps owner.attribute (a function, method, static or class method);
    False when there is nothing callable of that name."""
    if isinstance(owner, type):
        raw = owner.__dict__.get(attribute, None)
        if raw is None:
            raw = getattr(owner, attribute, None)  # inherited: traced for this class only
    else:
        raw = getattr(owner, attribute, None)
    kind = None
    if isinstance(raw, (staticmethod, classmethod)):
        kind, raw = type(raw), raw.__func__
    if raw is None or not callable(raw) or isinstance(raw, type):
        return False
    if getattr(raw, _TRACED, False):
        return True
    index = _ranges.name(name, domain)
    if index < 0:
        return True  # no room for more names: left as it is
    wrapped = _traced(raw, index)
    setattr(owner, attribute, kind(wrapped) if kind else wrapped)
    return True


def _trace_listed(module, qualname, domain):
    owner = module
    *path, attribute = qualname.split(".")
    for part in path:
        owner = getattr(owner, part, None)
        if owner is None:
            break
    if owner is None or not _trace_attribute(owner, attribute, qualname, domain):
        _warn(f"Python function {module.__name__}:{qualname} is not traced: no such function")


def _trace_whole_module(module, domain):
    name = module.__name__
    for attribute, value in list(vars(module).items()):
        if getattr(value, "__module__", None) != name:
            continue  # imported from elsewhere
        if isinstance(value, type):
            for method, raw in list(vars(value).items()):
                if isinstance(raw, (staticmethod, classmethod)) or (
                    callable(raw) and not isinstance(raw, type) and hasattr(raw, "__code__")
                ):
                    _trace_attribute(value, method, f"{value.__qualname__}.{method}", domain)
        elif callable(value) and hasattr(value, "__code__"):
            _trace_attribute(module, attribute, getattr(value, "__qualname__", attribute), domain)


# The built-in set "pytorch": a module's forward calls (by its class),
# optimizer steps, DataLoader iteration and torch.distributed's collectives.

_COLLECTIVES = (
    "all_gather", "all_gather_coalesced", "all_gather_into_tensor", "all_gather_object",
    "all_reduce", "all_reduce_coalesced", "all_to_all", "all_to_all_single", "barrier",
    "batch_isend_irecv", "broadcast", "broadcast_object_list", "gather", "gather_object",
    "irecv", "isend", "monitored_barrier", "recv", "reduce", "reduce_scatter",
    "reduce_scatter_tensor", "scatter", "scatter_object_list", "send",
)


def _trace_module_calls(module, domain):
    """nn.Module.__call__, each call named by the module's class: Linear.forward."""
    Module = getattr(module, "Module", None)
    call = getattr(Module, "__dict__", {}).get("__call__")
    if call is None or getattr(call, _TRACED, False):
        return
    enter, leave, name = _ranges.enter, _ranges.leave, _ranges.name
    indexes = {}

    @functools.wraps(call)
    def prof_traced(self, *args, **kwargs):
        cls = self.__class__
        index = indexes.get(cls)
        if index is None:
            index = indexes[cls] = name(f"{cls.__qualname__}.forward", domain)
        enter(index)
        try:
            return call(self, *args, **kwargs)
        finally:
            leave(index)

    setattr(prof_traced, _TRACED, True)
    Module.__call__ = prof_traced


def _trace_optimizer_steps(module, domain):
    """The step of every Optimizer subclass, those defined later too: SGD.step."""
    Optimizer = getattr(module, "Optimizer", None)
    if not isinstance(Optimizer, type) or _TRACED in Optimizer.__dict__:
        return

    def trace_step(cls):
        if "step" in cls.__dict__:
            _trace_attribute(cls, "step", f"{cls.__qualname__}.step", domain)

    previous = Optimizer.__dict__.get("__init_subclass__")

    def __init_subclass__(cls, **kwargs):
        if previous is not None:
            previous.__func__(cls, **kwargs)
        else:
            super(Optimizer, cls).__init_subclass__(**kwargs)
        trace_step(cls)

    Optimizer.__init_subclass__ = classmethod(__init_subclass__)
    setattr(Optimizer, _TRACED, True)
    pending = list(Optimizer.__subclasses__())
    while pending:
        cls = pending.pop()
        trace_step(cls)
        pending.extend(cls.__subclasses__())


def _trace_data_loader(module, domain):
    iterator = getattr(module, "_BaseDataLoaderIter", None)
    if isinstance(iterator, type):
        _trace_attribute(iterator, "__next__", "DataLoader.__next__", domain)


def _trace_collectives(module, domain):
    """torch.distributed's collectives, where the package and its
    distributed_c10d both hold them."""
    c10d = sys.modules.get(module.__name__ + ".distributed_c10d")
    for collective in _COLLECTIVES:
        original = getattr(module, collective, None)
        if original is None or not _trace_attribute(module, collective, collective, domain):
            continue
        if c10d is not None and getattr(c10d, collective, None) is original:
            setattr(c10d, collective, getattr(module, collective))


_PYTORCH = {
    "torch.nn.modules.module": _trace_module_calls,
    "torch.optim.optimizer": _trace_optimizer_steps,
    "torch.utils.data.dataloader": _trace_data_loader,
    "torch.distributed": _trace_collectives,
}


def _parse(functions):
    """{module name: [function(module)]} from the option's text."""
    by_module = {}
    for entry in functions.split(";"):
        target, _, domain = entry.partition("@")
        domain = domain or None
        if target == "pytorch":
            for module_name, trace in _PYTORCH.items():
                by_module.setdefault(module_name, []).append(
                    functools.partial(trace, domain=domain))
            continue
        module_name, _, qualname = target.partition(":")
        if qualname == "*":
            trace = functools.partial(_trace_whole_module, domain=domain)
        else:
            trace = functools.partial(_trace_listed, qualname=qualname, domain=domain)
        by_module.setdefault(module_name, []).append(trace)
    return by_module


def install(functions):
    """Traces the functions the option's text lists: those of modules already
    imported now, the others when their modules are imported."""
    for module_name, traces in _parse(functions).items():
        for trace in traces:
            prof_after_import.after_import(
                module_name, trace, f"Python functions of {module_name} are not traced")


def start():
    """prof's sitecustomize calls this at start-up: traces what
    PROF_PYTHON_FUNCTIONS lists."""
    functions = os.environ.get("PROF_PYTHON_FUNCTIONS", "")
    if functions:
        install(functions)
