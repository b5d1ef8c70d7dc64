/* An MPI program with known traffic, for the mpi source's end-to-end test:
   a ring exchange, non-blocking messages, collectives, and a communicator
   split in two. Built against MPI (mpicc's flags), never against prof. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int next = (rank + 1) % size, previous = (rank + size - 1) % size;

  int ring_out[1024], ring_in[1024];
  for (int i = 0; i < 1024; ++i)
    ring_out[i] = rank;
  if (rank % 2 == 0) {
    MPI_Send(ring_out, 1024, MPI_INT, next, 7, MPI_COMM_WORLD);
    MPI_Recv(ring_in, 1024, MPI_INT, previous, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(ring_in, 1024, MPI_INT, previous, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(ring_out, 1024, MPI_INT, next, 7, MPI_COMM_WORLD);
  }

  double out[64] = {0}, in[64];
  MPI_Request requests[2];
  MPI_Irecv(in, 64, MPI_DOUBLE, previous, 9, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(out, 64, MPI_DOUBLE, next, 9, MPI_COMM_WORLD, &requests[1]);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);

  double local[256], global[256];
  for (int i = 0; i < 256; ++i)
    local[i] = rank + i;
  for (int step = 0; step < 5; ++step)
    MPI_Allreduce(local, global, 256, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int settings[100] = {0};
  MPI_Bcast(settings, 100, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Barrier(MPI_COMM_WORLD);

  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, rank, &half);
  long count = 1, total = 0;
  MPI_Allreduce(&count, &total, 1, MPI_LONG, MPI_SUM, half);
  MPI_Comm_free(&half);

  printf("rank %d of %d: sum %g, half %ld\n", rank, size, global[0], total);
  MPI_Finalize();
  return 0;
}
