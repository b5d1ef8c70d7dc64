/* A known straggler, for the cross-rank analysis: after a barrier, 20
   all-reduces of 1024 doubles on MPI_COMM_WORLD, each after 2 ms of work on
   every rank; before every 5th (the 5th, 10th, 15th and 20th), rank 1 works
   150 ms longer, well past what a loaded machine delays the others. The
   work sleeps, so that ranks sharing cores do not slow each other. Built
   against MPI, never against prof. Exits 0. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>

static void work(long milliseconds) {
  struct timespec left = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
  while (nanosleep(&left, &left) != 0) {
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local[1024], global[1024];
  for (int i = 0; i < 1024; ++i)
    local[i] = rank;
  MPI_Barrier(MPI_COMM_WORLD);
  for (int step = 0; step < 20; ++step) {
    work(2);
    if (rank == 1 && step % 5 == 4) work(150);
    MPI_Allreduce(local, global, 1024, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  printf("rank %d: %g\n", rank, global[0]);
  MPI_Finalize();
  return 0;
}
