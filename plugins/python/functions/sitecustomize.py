# prof's sitecustomize: Python programs that prof starts with
# --python-functions-trace find it first on PYTHONPATH. It starts prof's
# function trace, then runs the sitecustomize it hides, if there is one.
def _prof_start():
    import os
    import sys

    functions = os.environ.get("PROF_PYTHON_FUNCTIONS", "")
    if functions:
        try:
            import prof_python_functions

            prof_python_functions.install(functions)
        except Exception as error:  # never stop the program for prof
            sys.stderr.write(f"prof: Python functions are not traced in this process: {error}\n")

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
