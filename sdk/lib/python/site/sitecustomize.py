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

    # The sitecustomize this one hides (Debian's, a virtual environment's),
    # found by its file name and run by the import system Python loaded at
    # start: importlib would import 18 modules and list every folder on the
    # path, 180 KB of the program's heap and time at every start.
    bootstrap = sys.modules["_frozen_importlib"]
    external = sys.modules["_frozen_importlib_external"]
    here = os.path.dirname(os.path.abspath(__file__))
    for entry in sys.path:
        folder = os.path.abspath(entry or os.curdir)
        if folder == here:
            continue
        module = os.path.join(folder, "sitecustomize.py")
        package = os.path.join(folder, "sitecustomize", "__init__.py")
        if os.path.isfile(module):
            spec = external.spec_from_file_location("sitecustomize", module)
        elif os.path.isfile(package):
            spec = external.spec_from_file_location(
                "sitecustomize", package, submodule_search_locations=[os.path.dirname(package)]
            )
        else:
            continue
        spec.loader.exec_module(bootstrap.module_from_spec(spec))
        return

_prof_start()
del _prof_start
