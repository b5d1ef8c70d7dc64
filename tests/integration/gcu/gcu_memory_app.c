/* A gcusim program with a known use of device 0's memory, for the
 * device-memory end-to-end test: 1 MiB and 3 MiB, 256 KiB pinned, the 1 MiB
 * freed, 2 MiB more (the peak: 5 MiB live), that freed, the pinned freed,
 * and the 3 MiB never freed (the leak). Exits 1 when a call fails. */
#include "gcusim/gcu_runtime.h"

#include <stdio.h>

#define MIB (1024u * 1024u)

static int check(gcuError_t error, const char *what) {
  if (error == gcuSuccess) return 0;
  fprintf(stderr, "gcu-memory-app: %s: %s\n", what, gcuGetErrorString(error));
  return 1;
}

int main(void) {
  void *a = NULL, *b = NULL, *c = NULL, *pinned = NULL;
  if (check(gcuSetDevice(0), "gcuSetDevice") || check(gcuMalloc(&a, 1 * MIB), "gcuMalloc a") ||
      check(gcuMalloc(&b, 3 * MIB), "gcuMalloc b") ||
      check(gcuMallocHost(&pinned, 256 * 1024), "gcuMallocHost") ||
      check(gcuMemcpyH2D(b, pinned, 256 * 1024), "gcuMemcpyH2D") ||
      check(gcuFree(a), "gcuFree a") || check(gcuMalloc(&c, 2 * MIB), "gcuMalloc c") ||
      check(gcuFree(c), "gcuFree c") || check(gcuFreeHost(pinned), "gcuFreeHost"))
    return 1;
  printf("gcu-memory-app: leaving %u bytes allocated at %p\n", 3 * MIB, b);
  return 0;
}
