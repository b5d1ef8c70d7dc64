/* A job that hangs on demand, for the flight recorder: every rank makes
   all-reduces on MPI_COMM_WORLD, 20 ms apart, until rank 1 finds the file
   named by its first argument; rank 1 then stops in stall() for 60 s
   before its next one, and the other ranks wait in that all-reduce. Built
   against MPI, never against prof. */
#include <mpi.h>
#include <stdio.h>
#include <time.h>
#include <unistd.h>

static void pause_ms(long milliseconds) {
  struct timespec left = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
  while (nanosleep(&left, &left) != 0) {
  }
}

/* Not inlined: a stack shows it. */
__attribute__((noinline)) static void stall(void) { pause_ms(60000); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double local = rank, global = 0;
  for (long i = 0; i < 100000; ++i) {
    pause_ms(20);
    if (rank == 1 && argc > 1 && access(argv[1], F_OK) == 0) {
      printf("rank 1 stalls after %ld all-reduces\n", i);
      fflush(stdout);
      stall();
    }
    MPI_Allreduce(&local, &global, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
