/* gcu-mpi-train: data-parallel training steps on gcusim under MPI, the
 * shape HTA analyses: each rank computes on one device stream and
 * all-reduces its gradients on a second one, a bucket as soon as the
 * backward kernel that makes it has run, so communication overlaps the
 * rest of the backward pass.
 *   mpirun -np N gcu-mpi-train [STEPS]
 * Per step: a copy of the batch to the device, a memset of the gradients,
 * FORWARD forward kernels, BUCKETS backward kernels each followed on the
 * communication stream by a collective kernel (gcuLaunchCollectiveKernel)
 * whose body all-reduces that bucket with MPI_Allreduce, and a copy of
 * the loss back. Kernels spin for a fixed time on each SIP. Exit 0, or 1
 * when a rank's all-reduced sums are wrong. */
#define _POSIX_C_SOURCE 200809L
#include "gcusim/gcu_runtime.h"

#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { FORWARD = 3, BUCKETS = 3, BUCKET_FLOATS = 1 << 16 };

static int failed = 0;
static void check(gcuError_t error, const char *what) {
  if (error == gcuSuccess) return;
  fprintf(stderr, "gcu-mpi-train: %s: %s\n", what, gcuGetErrorString(error));
  failed = 1;
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec * 1e6 + t.tv_nsec / 1e3;
}

/* A compute kernel: spins `us` microseconds on every SIP, then (on SIP 0)
 * fills `out` with `value`. */
typedef struct {
  double us;
  float *out;
  float value;
} SpinArgs;

static void spin(void *p, unsigned sip, unsigned sip_count) {
  const SpinArgs *a = p;
  (void)sip_count;
  const double until = now_us() + a->us;
  while (now_us() < until) {
  }
  if (sip == 0 && a->out != NULL)
    for (int i = 0; i < BUCKET_FLOATS; ++i)
      a->out[i] = a->value;
}

/* A collective kernel: SIP 0 all-reduces the bucket in place (device
 * memory is host memory in gcusim). */
static void all_reduce(void *p, unsigned sip, unsigned sip_count) {
  (void)sip_count;
  if (sip == 0) MPI_Allreduce(MPI_IN_PLACE, p, BUCKET_FLOATS, MPI_FLOAT, MPI_SUM, MPI_COMM_WORLD);
}

int main(int argc, char **argv) {
  int provided = 0, rank = 0, size = 1;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int steps = argc > 1 ? atoi(argv[1]) : 3;

  gcuStream_t compute = NULL, comm = NULL;
  gcuEvent_t ready[BUCKETS];
  float *grads = NULL, *batch = NULL, *loss = NULL;
  float host_batch[1024] = {0}, host_loss = 0;
  check(gcuSetDevice(0), "gcuSetDevice");
  check(gcuStreamCreate(&compute), "gcuStreamCreate");
  check(gcuStreamCreate(&comm), "gcuStreamCreate");
  for (int b = 0; b < BUCKETS; ++b)
    check(gcuEventCreate(&ready[b]), "gcuEventCreate");
  check(gcuMalloc((void **)&grads, sizeof(float) * BUCKETS * BUCKET_FLOATS), "gcuMalloc");
  check(gcuMalloc((void **)&batch, sizeof host_batch), "gcuMalloc");
  check(gcuMalloc((void **)&loss, sizeof host_loss), "gcuMalloc");

  SpinArgs forward[FORWARD], backward[BUCKETS];
  for (int i = 0; i < FORWARD; ++i)
    forward[i] = (SpinArgs){400.0 + 100.0 * i, NULL, 0};
  for (int b = 0; b < BUCKETS; ++b)
    backward[b] = (SpinArgs){800.0, grads + (size_t)b * BUCKET_FLOATS, (float)(rank + 1)};

  for (int step = 0; step < steps && !failed; ++step) {
    check(gcuMemcpyH2DAsync(batch, host_batch, sizeof host_batch, compute), "gcuMemcpyH2DAsync");
    check(gcuMemsetAsync(grads, 0, sizeof(float) * BUCKETS * BUCKET_FLOATS, compute),
          "gcuMemsetAsync");
    for (int i = 0; i < FORWARD; ++i)
      check(gcuLaunchKernel("forward_dtu", spin, &forward[i], compute), "gcuLaunchKernel");
    for (int b = 0; b < BUCKETS; ++b) {
      check(gcuLaunchKernel("backward_dtu", spin, &backward[b], compute), "gcuLaunchKernel");
      check(gcuEventRecord(ready[b], compute), "gcuEventRecord");
      check(gcuStreamWaitEvent(comm, ready[b]), "gcuStreamWaitEvent");
      check(gcuLaunchCollectiveKernel("eccl_all_reduce", all_reduce,
                                      grads + (size_t)b * BUCKET_FLOATS, comm),
            "gcuLaunchCollectiveKernel");
    }
    check(gcuMemcpyD2HAsync(&host_loss, loss, sizeof host_loss, compute), "gcuMemcpyD2HAsync");
    check(gcuStreamSynchronize(compute), "gcuStreamSynchronize");
    check(gcuStreamSynchronize(comm), "gcuStreamSynchronize");
    const float expected = (float)size * (float)(size + 1) / 2;
    for (int b = 0; b < BUCKETS && !failed; ++b)
      if (grads[(size_t)b * BUCKET_FLOATS] != expected) {
        fprintf(stderr, "gcu-mpi-train: rank %d: bucket %d holds %g, not %g\n", rank, b,
                grads[(size_t)b * BUCKET_FLOATS], expected);
        failed = 1;
      }
  }
  gcuFree(grads);
  gcuFree(batch);
  gcuFree(loss);
  MPI_Finalize();
  return failed;
}
