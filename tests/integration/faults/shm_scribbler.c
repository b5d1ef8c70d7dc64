/* A buggy application for the fault suite: between OS runtime calls that
 * prof's osrt source records, it writes random bytes at random offsets of its
 * own prof shared region, as a wild pointer would: anywhere, in the region's
 * first MiB (header, catalog log) and at page starts (ring headers).
 * usage: shm-scribbler SEED [WRITES] */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
  const unsigned seed = argc > 1 ? (unsigned)atoi(argv[1]) : 1;
  const int writes = argc > 2 ? atoi(argv[2]) : 20000;
  for (int i = 0; i < 50; ++i)
    usleep(100);
  uintptr_t start = 0, end = 0;
  FILE *maps = fopen("/proc/self/maps", "r");
  char line[512];
  while (maps && fgets(line, sizeof line, maps)) {
    unsigned long from, to;
    if (strstr(line, "/dev/shm/prof-") == NULL || sscanf(line, "%lx-%lx", &from, &to) != 2)
      continue;
    if (start == 0 || from < start) start = from;
    if (to > end) end = to;
  }
  if (maps) fclose(maps);
  if (start == 0) {
    fprintf(stderr, "shm-scribbler: no prof region is mapped\n");
    return 3;
  }
  srand(seed);
  const size_t size = end - start;
  for (int i = 0; i < writes; ++i) {
    const size_t r = ((size_t)rand() << 31) ^ (size_t)rand();
    size_t offset = r % size; /* anywhere: mostly ring slots */
    if (i % 4 == 2) offset = r % (size < (1u << 20) ? size : (1u << 20)); /* header, catalog */
    if (i % 4 == 3) /* the first bytes of each 64-byte line at page starts: ring positions */
      offset = (r / 128 % (size / 4096)) * 4096 + (r / 64 % 2) * 64 + r % 16;
    ((volatile unsigned char *)start)[offset] = (unsigned char)rand();
  }
  for (int i = 0; i < 50; ++i)
    usleep(100);
  printf("shm-scribbler: %d bytes written over %zu\n", writes, size);
  return 0;
}
