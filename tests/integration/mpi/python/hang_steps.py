"""Training steps that hang on demand, for the flight recorder's test: each
train_step() sleeps 20 ms and makes one all-reduce on MPI_COMM_WORLD; before
the 50th, rank 1 stops in stall() until the release file exists (60 s at
most), and the other ranks wait in that all-reduce."""
import array
import os
import sys
import time

from mpi4py import MPI


def stall(release):
    deadline = time.monotonic() + 60
    while not os.path.exists(release) and time.monotonic() < deadline:
        time.sleep(0.05)


def train_step(comm, step, buffers, release):
    time.sleep(0.02)
    if comm.rank == 1 and step == 49:
        print("rank 1 stalls before all-reduce 50", flush=True)
        stall(release)
    comm.Allreduce([buffers[0], MPI.DOUBLE], [buffers[1], MPI.DOUBLE])


def run(release, steps=60):
    comm = MPI.COMM_WORLD
    buffers = (array.array("d", [comm.rank] * 8), array.array("d", [0.0] * 8))
    for step in range(steps):
        train_step(comm, step, buffers, release)
    # One write: mpirun forwards the ranks' output as it comes, pieces interleaved.
    sys.stdout.write(f"rank {comm.rank} done {buffers[1][0]}\n")
    sys.stdout.flush()
