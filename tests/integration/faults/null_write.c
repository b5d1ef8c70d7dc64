/* An application that writes through a null pointer in write_through_null:
 * the crash witness must say the fault is its own, not prof's. */
#include <stdio.h>

__attribute__((noinline)) void write_through_null(volatile int *where) { *where = 1; }

int main(void) {
  puts("about to fault");
  fflush(stdout);
  write_through_null(NULL);
  return 0;
}
