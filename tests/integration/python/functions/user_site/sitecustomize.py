# The program's own sitecustomize, which prof's must still run.
import sys

sys.stderr.write("user sitecustomize ran\n")
