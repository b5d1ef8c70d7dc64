/* A job that runs until rank 0 sees the file its second argument names, or
   for the seconds its first says: every rank makes a training step each
   20 ms, an all-reduce on MPI_COMM_WORLD (which carries rank 0's decision
   to stop) followed by prof_step() (<prof/profiler_api.h>, header only: it
   finds prof's agent at run time, and does nothing without one). Built
   against MPI, never linked to prof. */
#include <prof/profiler_api.h>

#include <mpi.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double seconds = argc > 1 ? atof(argv[1]) : 60;
  const char *stop_file = argc > 2 ? argv[2] : NULL;
  const double start = MPI_Wtime();
  const struct timespec step = {0, 20000000L};
  for (;;) {
    nanosleep(&step, NULL);
    double local[2] = {rank, 0}, global[2] = {0, 0};
    if (rank == 0)
      local[1] = MPI_Wtime() - start > seconds || (stop_file && access(stop_file, F_OK) == 0);
    MPI_Allreduce(local, global, 2, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    if (global[1] > 0) break;
    prof_step();
  }
  MPI_Finalize();
  return 0;
}
