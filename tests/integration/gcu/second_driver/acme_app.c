/* acme-app: a program of the acme test driver's vendor. Three steps of:
 * copy 4 KiB in, job A (2 ms), job B (1 ms), zero 1 KiB, copy 512 bytes out. */
#include "acme_runtime.h"

int main(void) {
  for (int step = 0; step < 3; ++step) {
    acme_copy_in(4096);
    acme_run(0, 2000000);
    acme_run(1, 1000000);
    acme_fill(1024);
    acme_copy_out(512);
  }
  return 0;
}
