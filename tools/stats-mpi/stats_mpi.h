/* libprof-stats-mpi: the MPI calls of `prof stats` run under an MPI
   launcher. prof loads it with dlopen, so that prof itself never links an
   MPI library; built only where MPI is installed. Functions return 0 on
   success. Called from one thread. */
#ifndef PROF_STATS_MPI_H
#define PROF_STATS_MPI_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** MPI_Init; this process's rank and the number of processes. */
int prof_stats_mpi_init(int *rank, int *size);

/** Called at rank 0 with each rank's bytes, in rank order. */
typedef void (*prof_stats_mpi_deliver)(void *context, int rank, const uint8_t *data, uint64_t size);

/** Every rank gives its bytes; rank 0 gets them all through `deliver`
    (its own first), the others only send. */
int prof_stats_mpi_gather(const uint8_t *data, uint64_t size, prof_stats_mpi_deliver deliver,
                          void *context);

/** MPI_Finalize. */
void prof_stats_mpi_finalize(void);

#ifdef __cplusplus
}
#endif

#endif
