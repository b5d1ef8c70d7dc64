/* For run_bench_memory.py: THREADS threads each make ROUNDS small blocks
 * (16 to 256 bytes) and free each at once, keeping one in 64 for a while;
 * prints the seconds the work took. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static long rounds = 1000000;

static void *churn(void *arg) {
  void *kept[64] = {0};
  unsigned seed = (unsigned)(size_t)arg;
  for (long i = 0; i < rounds; i++) {
    seed = seed * 1103515245u + 12345u;
    char *p = malloc(16 + (seed >> 16) % 241);
    p[0] = (char)i;
    if (i % 64 == 0) {
      free(kept[(i / 64) % 64]);
      kept[(i / 64) % 64] = p;
    } else {
      free(p);
    }
  }
  for (int k = 0; k < 64; k++)
    free(kept[k]);
  return NULL;
}

int main(int argc, char **argv) {
  const int threads = argc > 1 ? atoi(argv[1]) : 4;
  if (argc > 2) rounds = atol(argv[2]);
  pthread_t ids[64];
  struct timespec start, end;
  clock_gettime(CLOCK_MONOTONIC, &start);
  for (int t = 0; t < threads && t < 64; t++)
    pthread_create(&ids[t], NULL, churn, (void *)(size_t)(t + 1));
  for (int t = 0; t < threads && t < 64; t++)
    pthread_join(ids[t], NULL);
  clock_gettime(CLOCK_MONOTONIC, &end);
  printf("%.6f\n", (double)(end.tv_sec - start.tv_sec) + (end.tv_nsec - start.tv_nsec) / 1e9);
  return 0;
}
