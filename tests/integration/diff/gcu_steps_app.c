/* A gcusim program whose steps take a known time, for prof diff's
 * end-to-end test: each of --steps N steps (default 10) runs the kernels
 * prepare_dtu (10 ms), matmul_dtu (20 ms) and reduce_dtu (10 ms), each a sleep
 * on the device, waits for them and ends with prof_step(). --slow NAME
 * makes kernel NAME take twice as long. Exits 1 when a call fails, 2 on
 * bad usage. */
#include "gcusim/gcu_runtime.h"

#include <prof/profiler_api.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct Kernel {
  const char *name;
  long microseconds;
};

static void sleep_kernel(void *args, unsigned sip, unsigned sip_count) {
  (void)sip_count;
  if (sip != 0) return; /* one SIP sleeps: the kernel lasts that long */
  const struct Kernel *kernel = (const struct Kernel *)args;
  struct timespec wait = {0, kernel->microseconds * 1000};
  while (nanosleep(&wait, &wait) != 0) {
  }
}

static int check(gcuError_t error, const char *what) {
  if (error == gcuSuccess) return 0;
  fprintf(stderr, "gcu-steps-app: %s: %s\n", what, gcuGetErrorString(error));
  return 1;
}

int main(int argc, char **argv) {
  struct Kernel kernels[] = {{"prepare_dtu", 10000}, {"matmul_dtu", 20000}, {"reduce_dtu", 10000}};
  const size_t count = sizeof kernels / sizeof kernels[0];
  int steps = 10;
  for (int i = 1; i < argc; ++i) {
    if (strcmp(argv[i], "--steps") == 0 && i + 1 < argc) {
      steps = atoi(argv[++i]);
    } else if (strcmp(argv[i], "--slow") == 0 && i + 1 < argc) {
      const char *name = argv[++i];
      for (size_t k = 0; k < count; ++k)
        if (strcmp(kernels[k].name, name) == 0) kernels[k].microseconds *= 2;
    } else {
      fprintf(stderr, "usage: gcu-steps-app [--steps N] [--slow KERNEL]\n");
      return 2;
    }
  }
  gcuStream_t stream = NULL;
  if (check(gcuSetDevice(0), "gcuSetDevice") || check(gcuStreamCreate(&stream), "gcuStreamCreate"))
    return 1;
  for (int step = 0; step < steps; ++step) {
    for (size_t k = 0; k < count; ++k)
      if (check(gcuLaunchKernel(kernels[k].name, sleep_kernel, &kernels[k], stream),
                "gcuLaunchKernel"))
        return 1;
    if (check(gcuStreamSynchronize(stream), "gcuStreamSynchronize")) return 1;
    prof_step();
  }
  return check(gcuStreamDestroy(stream), "gcuStreamDestroy");
}
