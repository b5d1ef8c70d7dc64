# The function trace's workload: calls of known functions, in known numbers,
# from two threads; a call that raises; recursion deeper than prof's range
# stack; static and class methods. The functions live in calls_module (a
# module is traced when it is imported; __main__'s functions cannot be).
import threading

import calls_module

worker = threading.Thread(target=calls_module.outer, args=(4,), name="worker")
worker.start()
calls_module.outer(3)
worker.join()

try:
    calls_module.fails()
except ValueError:
    pass

calls_module.recurse(100)
calls_module.Shapes.area(2)
calls_module.Shapes.unit()
print("done", calls_module.untraced(5))
