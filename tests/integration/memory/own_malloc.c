/* A program that defines the allocator itself, as one statically linked
 * with jemalloc or tcmalloc does: its definitions come before any preloaded
 * library's. These forward to the C library's own entry points and count.
 * Exits 5. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);
extern void __libc_free(void *);

static unsigned long calls;

void *malloc(size_t size) {
  ++calls;
  return __libc_malloc(size);
}
void *calloc(size_t count, size_t size) {
  ++calls;
  return __libc_calloc(count, size);
}
void *realloc(void *p, size_t size) {
  ++calls;
  return __libc_realloc(p, size);
}
void free(void *p) { __libc_free(p); }

void *volatile sink;

int main(void) {
  for (int i = 0; i < 1000; i++) {
    sink = malloc(64);
    free(sink);
  }
  char *text = strdup("kept");
  sink = text;
  fprintf(stderr, "own allocator calls: %lu\n", calls);
  return 5;
}
