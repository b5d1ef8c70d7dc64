/* A peak that lasts a moment: leaks 37 blocks of 1,000 bytes, holds one
 * 5 MiB block for no longer than it takes to fill it, then churns CHURN
 * small blocks (argv[1], 3,000,000 by default), each freed at once. The
 * heap's peak is the moment the 5 MiB block was live, long before the
 * program ends. Exits 0. */
#include <stdlib.h>
#include <string.h>

void *volatile sink;

__attribute__((noinline)) void *leak_one(void) {
  void *p = malloc(1000);
  memset(p, 1, 1000);
  return p;
}

__attribute__((noinline)) void hold_briefly(void) {
  char *p = malloc(5 * 1024 * 1024);
  memset(p, 2, 5 * 1024 * 1024);
  sink = p;
  free(p);
}

__attribute__((noinline)) void churn(long count) {
  for (long i = 0; i < count; i++) {
    sink = malloc(16 + i % 112);
    free(sink);
  }
}

int main(int argc, char **argv) {
  static void *kept[37];
  for (int i = 0; i < 37; i++)
    kept[i] = leak_one();
  hold_briefly();
  churn(argc > 1 ? atol(argv[1]) : 3000000);
  sink = kept;
  return 0;
}
