/* Anonymous mappings under the hooks, unmapped in part: the head, the tail
 * and a middle page of one, a span in the middle of another, and a span
 * across two adjacent ones. 25 pages stay mapped to the end. Exits 5. */
#include <stddef.h>
#include <sys/mman.h>
#include <unistd.h>

static char *map(void *at, size_t pages, int flags) {
  const long page = sysconf(_SC_PAGESIZE);
  void *p = mmap(at, pages * (size_t)page, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  return p == MAP_FAILED ? NULL : (char *)p;
}

int main(void) {
  const long page = sysconf(_SC_PAGESIZE);
  char *a = map(NULL, 16, 0);
  char *b = map(NULL, 8, 0);
  char *c = map(NULL, 16, 0);
  if (!a || !b || !c) return 1;
  munmap(a, (size_t)page);                /* head: 15 left */
  munmap(a + 15 * page, (size_t)page);    /* tail: 14 */
  munmap(a + 7 * page, (size_t)page);     /* a middle page: 13 */
  munmap(b + 2 * page, 4 * (size_t)page); /* its middle: 4 left */
  /* c as two adjacent mappings of 8 pages, then a span across both: 8 left */
  if (map(c, 8, MAP_FIXED) != c || map(c + 8 * page, 8, MAP_FIXED) != c + 8 * page) return 1;
  munmap(c + 4 * page, 8 * (size_t)page);
  return 5;
}
