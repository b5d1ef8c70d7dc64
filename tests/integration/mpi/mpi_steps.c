/* A job that runs until killed or for the seconds its first argument says:
   every rank makes a training step each 20 ms, an all-reduce on
   MPI_COMM_WORLD followed by prof_step() (<prof/profiler_api.h>, header
   only: it finds prof's agent at run time, and does nothing without one).
   Built against MPI, never linked to prof. */
#include <prof/profiler_api.h>

#include <mpi.h>
#include <stdlib.h>
#include <time.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const double seconds = argc > 1 ? atof(argv[1]) : 60;
  const double start = MPI_Wtime();
  double local = rank, global = 0;
  const struct timespec step = {0, 20000000L};
  while (MPI_Wtime() - start < seconds) {
    nanosleep(&step, NULL);
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    prof_step();
  }
  MPI_Finalize();
  return 0;
}
