"""mpi4py job for the flight recorder's test: python3 mpi_hang.py RELEASE
(see hang_steps.py; its functions are traced, so they live in a module)."""
import sys

import hang_steps

hang_steps.run(sys.argv[1])
