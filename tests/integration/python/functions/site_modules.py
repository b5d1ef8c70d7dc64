# Prints the modules Python has loaded once its start is done, one per line,
# then whether the sitecustomize it ran came byte-compiled.
import os
import sys

for name in sorted(sys.modules):
    print(name)
site = sys.modules.get("sitecustomize")
cached = getattr(site, "__cached__", None)
print("sitecustomize compiled:", bool(cached) and os.path.exists(cached))
