# prof's sitecustomize: Python programs started under prof find it first on
# PYTHONPATH (the folder python-site beside prof's plugins). It starts each
# module that PROF_PYTHON_STARTUP lists (';'-separated: the function trace,
# the torch source, ...) by calling its start(), then runs the
# sitecustomize it hides, if there is one.
def _prof_start():
    import os
    import sys

    for name in filter(None, os.environ.get("PROF_PYTHON_STARTUP", "").split(";")):
        try:
            __import__(name).start()
        except Exception as error:  # never stop the program for prof
            sys.stderr.write(f"prof: {name} did not start in this process: {error}\n")

    import importlib.machinery
    import importlib.util

    here = os.path.dirname(os.path.abspath(__file__))
    path = [entry for entry in sys.path if os.path.abspath(entry or os.curdir) != here]
    spec = importlib.machinery.PathFinder.find_spec("sitecustomize", path)
    if spec is not None and spec.loader is not None:
        hidden = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(hidden)


_prof_start()
del _prof_start
