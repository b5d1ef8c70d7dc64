"""prof's Python API: marks a program makes for prof, which cost nothing
and do nothing when prof is not there (the C API is prof/profiler_api.h).

    import prof
    for batch in loader:
        train(batch)
        prof.step()   # step N ends, step N+1 begins

On PYTHONPATH under prof: its agent adds lib/prof/plugins/python-site.
"""
import ctypes

_START, _STOP, _STEP = 1, 2, 5  # prof_capture_request_kind


def _agent_entry():
    # The agent prof preloads exports it; without prof there is none.
    try:
        entry = ctypes.CDLL(None).prof_agent_capture_request
    except (AttributeError, OSError):
        return None
    entry.restype = ctypes.c_int
    entry.argtypes = (ctypes.c_int, ctypes.c_char_p, ctypes.c_char_p)
    return entry


_entry = _agent_entry()

def step():
    """A training step ends and the next begins (call it once per
    iteration). prof counts steps even before it attaches, so `prof attach
    --capture-steps K` captures the same steps in every process. True when
    prof is profiling this process."""
    return _entry is not None and _entry(_STEP, None, None) == 0


def start():
    """prof_start(): a capture range (--capture-range profiler-api) begins."""
    return _entry is not None and _entry(_START, None, None) == 0


def stop():
    """prof_stop(): the capture range ends."""
    return _entry is not None and _entry(_STOP, None, None) == 0


try:  # the same marks in C (_prof_marks), without ctypes' cost per call
    from _prof_marks import start, step, stop  # noqa: F401,F811
except ImportError:
    pass
