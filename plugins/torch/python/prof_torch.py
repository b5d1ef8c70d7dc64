"""prof's torch source, in each Python process of the application.

prof's sitecustomize calls start(). Once the program has imported torch
(before or after start), the bridge _prof_torch registers PyTorch's
RecordFunction callbacks: every operator, backward node, user range and
backend collective then reaches the torch source preloaded into the
process. The process groups the program creates are named to it, so that
their operations carry the group's name, size and ranks on every rank.

The bridge is the one prof was built with (Debian's libtorch-dev) when the
program imports that torch, else one built once for the program's torch
(prof_torch_jit). A torch it cannot serve is said once, and the program
runs on unrecorded.
"""

import functools
import os
import sys

import prof_after_import

_state = {"installed": False, "started": False}


def _warn(text):
    sys.stderr.write(f"prof: {text}\n")


def _not_recorded(why):
    _warn(f"{why}: this program's operators, steps and collectives are not recorded")


def _obtained(get, torch):
    """What get() returns, None when the bridge cannot be had (said why)."""
    import prof_torch_jit

    try:
        return get()
    except prof_torch_jit.BridgeUnavailable as why:
        _not_recorded(why)
    except Exception as error:  # never the program's failure
        _not_recorded(f"the torch source's bridge is not available for torch "
                      f"{getattr(torch, '__version__', '?')} ({error!r})")
    return None


def _bridge(late):
    """The bridge module, or None (said why, or being built in the
    background for a program prof came to late): the one prof was built
    with when this is its torch, else one built for this torch."""
    import torch

    import prof_torch_jit

    try:
        import prof_torch_build
    except ImportError:
        prof_torch_build = None
    loaded = prof_torch_jit.loaded_libraries().get("libtorch_cpu", "")
    if prof_torch_build is not None and loaded == prof_torch_build.TORCH_LIBRARY:
        try:
            import _prof_torch
        except ImportError as error:
            _warn(f"the torch source's bridge did not load: {error}")
            return None
        return _prof_torch
    place = _obtained(lambda: prof_torch_jit.BridgePlace(torch), torch)
    if place is None:
        return None
    if place.built() or not late:  # a program not yet at its torch work waits for the build
        return _obtained(lambda: place.load(_warn), torch)

    # A running program is never held up: recording begins once it is built.
    def build_then_activate():
        bridge = _obtained(
            lambda: place.load(lambda text: _warn(f"{text}; recording begins once it is built")),
            torch)
        if bridge is not None:
            _activate(bridge)

    import threading

    threading.Thread(target=build_then_activate, name="prof-torch-bridge", daemon=True).start()
    return None


def _groups(c10d):
    """{group: (name, global ranks)} of the groups this process is a member of."""
    world = getattr(c10d, "_world", None)
    names = getattr(c10d, "_pg_names", None)
    if names is None and world is not None:
        names = getattr(world, "pg_names", None)
    group_ranks = getattr(c10d, "_pg_group_ranks", None)
    if group_ranks is None and world is not None:
        group_ranks = getattr(world, "pg_group_ranks", None)
    found = {}
    for group, name in dict(names or {}).items():
        ranks = sorted((group_ranks or {}).get(group, {}).keys())
        found[group] = (name, ranks)
    return found


_SEQUENCE_UNKNOWN = 2**64 - 1  # recorder_api.h's PROF_TORCH_SEQUENCE_UNKNOWN


def _sequence_base(c10d, group, name, backend):
    """The group's own operation count when it was made, _SEQUENCE_UNKNOWN
    if not known: on 1.x, gloo and nccl groups start theirs at a number
    rank 0 drew and left in the group's store (init_process_group and
    new_group), the same on every member; 2.x starts it at 0. Known, it
    numbers the group's operations alike on every rank however late prof
    came in."""
    if backend not in ("gloo", "nccl"):
        return _SEQUENCE_UNKNOWN
    try:
        import datetime

        store = c10d._pg_map[group][1]
        key = f"{name}/SEQ_NUM_STORE_KEY"
        if hasattr(store, "check"):
            # 2.x counts from 0 on every member and leaves no key.
            if not store.check([key]):
                return 0
        else:
            # Present since the group was made: the wait returns at once. Never
            # a plain get, which would block the program on a missing key.
            store.wait([key], datetime.timedelta(seconds=2))
        return int.from_bytes(store.get(key), "little")
    except Exception:  # another torch, another store: counted from prof's start
        return _SEQUENCE_UNKNOWN


def _name_groups(bridge, c10d, named):
    for group, (name, ranks) in _groups(c10d).items():
        if group in named:
            continue
        try:
            backend = str(c10d.get_backend(group))
            bridge.name_group(group, str(name), backend, [int(rank) for rank in ranks],
                              _sequence_base(c10d, group, str(name), backend))
            named.add(group)
        except Exception as error:  # a group prof cannot read stays unnamed
            _warn(f"a process group is not named: {error!r}")


def _follow_groups(bridge, c10d):
    """Names the groups there are, and those that init_process_group and
    new_group make from now on."""
    named = set()
    _name_groups(bridge, c10d, named)
    distributed = sys.modules.get("torch.distributed")
    for function_name in ("init_process_group", "new_group", "new_subgroups",
                          "new_subgroups_by_enumeration"):
        original = getattr(c10d, function_name, None)
        if original is None or getattr(original, "__prof_torch__", False):
            continue

        def make(original):
            @functools.wraps(original)
            def prof_naming_groups(*args, **kwargs):
                result = original(*args, **kwargs)
                _name_groups(bridge, c10d, named)
                return result

            prof_naming_groups.__prof_torch__ = True
            return prof_naming_groups

        wrapped = make(original)
        setattr(c10d, function_name, wrapped)
        if distributed is not None and getattr(distributed, function_name, None) is original:
            setattr(distributed, function_name, wrapped)


def _activate(bridge):
    bridge.install()
    c10d = sys.modules.get("torch.distributed.distributed_c10d")
    if c10d is None:
        try:
            import torch.distributed

            if torch.distributed.is_available():
                import torch.distributed.distributed_c10d as c10d
        except Exception:
            c10d = None
    if c10d is not None:
        _follow_groups(bridge, c10d)
    prof_after_import.after_import("torch._inductor.async_compile", _record_inductor_kernels,
                                   "torch.compile's kernels are not recorded")


def _install(late):
    if _state["installed"]:
        return
    _state["installed"] = True
    bridge = _bridge(late)
    if bridge is not None:
        _activate(bridge)


def _record_inductor_kernels(async_compile):
    """Each C++ kernel torch.compile's Inductor generates for the CPU
    (cpp_fused_addmm_relu_0: named after the operators it fuses) becomes a
    range of its own around each call, as an operator would be. Inductor's
    own switch for it (TORCHINDUCTOR_CPP_ENABLE_KERNEL_PROFILE) leaves
    kernels that do not load on 2.15, so the kernels its wrapper module
    calls are wrapped there, once compiled."""
    # A RecordFunction whatever profiler runs (_RecordFunctionFast records
    # only under torch.profiler); the bridge takes it for an operator.
    record = getattr(sys.modules.get("torch.autograd.profiler"), "record_function", None)
    compiler = getattr(async_compile, "AsyncCompile", None)
    wait = getattr(compiler, "wait", None)
    if record is None or wait is None or getattr(wait, "__prof_torch__", False):
        return

    def recorded(name, kernel):
        def kernel_in_range(*args, **kwargs):
            with record(name):
                return kernel(*args, **kwargs)

        kernel_in_range.__prof_torch__ = True
        return kernel_in_range

    @functools.wraps(wait)
    def wait_then_record(self, scope, *args, **kwargs):
        result = wait(self, scope, *args, **kwargs)
        for name, value in list(scope.items()):
            if (name.startswith("cpp_fused_") and callable(value)
                    and not getattr(value, "__prof_torch__", False)):
                scope[name] = recorded(name, value)
        return result

    wait_then_record.__prof_torch__ = True
    compiler.wait = wait_then_record


def start():
    """prof's sitecustomize calls this at start-up; the torch source, in the
    interpreter's main thread, when prof attaches to a running program."""
    if _state["started"]:
        return
    _state["started"] = True
    late = "torch" in sys.modules
    prof_after_import.after_import("torch", lambda module: _install(late),
                                   "the torch source did not start")
