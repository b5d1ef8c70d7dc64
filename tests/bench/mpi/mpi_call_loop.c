/* The cost of one MPI call, bare or with prof's mpi source: N MPI_Allreduce
   of one int on MPI_COMM_SELF (the library's cheapest collective), timed
   inside the program so that start-up and shut-down are left out. Prints
   "ns_per_call X" (the median of 5 batches). With SPIN_NS, each call is
   followed by that much busy work, as a program does between its calls.
   Usage: mpi_call_loop [CALLS_PER_BATCH [SPIN_NS]] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static int by_value(const void *a, const void *b) {
  const double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  const long calls = argc > 1 ? atol(argv[1]) : 200000;
  const double spin = argc > 2 ? atof(argv[2]) : 0;
  int one = 1, sum = 0;
  double batch[5];
  for (int b = 0; b < 5; ++b) {
    const double start = now_ns();
    for (long i = 0; i < calls; ++i) {
      MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_SELF);
      if (spin > 0)
        for (const double until = now_ns() + spin; now_ns() < until;) {
        }
    }
    batch[b] = (now_ns() - start) / calls;
  }
  qsort(batch, 5, sizeof batch[0], by_value);
  printf("ns_per_call %.1f\n", batch[2]);
  MPI_Finalize();
  return 0;
}
