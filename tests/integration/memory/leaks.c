/* Three blocks leaked from three known call sites (exactly 100, 10,000 and
 * 100,000 bytes), everything else freed: a loop of short-lived blocks
 * (temporaries), realloc, and each aligned allocator. Exits 3. */
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

void *volatile sink;

__attribute__((noinline)) void *leak_small(void) {
  void *p = malloc(100);
  memset(p, 1, 100);
  return p;
}

__attribute__((noinline)) void *leak_medium(void) {
  void *p = calloc(10, 1000); /* not a tail call: the site is here */
  sink = p;
  return p;
}

__attribute__((noinline)) void *leak_large(void) {
  void *p = NULL;
  if (posix_memalign(&p, 64, 100000) != 0) return NULL;
  memset(p, 2, 100000);
  return p;
}

__attribute__((noinline)) void churn(void) {
  for (int i = 0; i < 10000; i++) {
    sink = malloc(32 + i % 64);
    free(sink);
  }
  char *grown = malloc(10);
  grown = realloc(grown, 5000);
  free(grown);
  free(aligned_alloc(256, 1024));
  free(memalign(128, 300));
  free(valloc(4096));
}

int main(void) {
  static void *kept[3];
  kept[0] = leak_small();
  kept[1] = leak_medium();
  kept[2] = leak_large();
  churn();
  sink = kept;
  return 3;
}
