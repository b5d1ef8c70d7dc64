/* The profiler API is C: an application in C marks its region of interest.
 * Without prof the calls do nothing and say so (0). */
#include <prof/profiler_api.h>

#include <stdio.h>

int main(void) {
  const int started = prof_start();
  const int begun = prof_capture_range_begin("step", NULL);
  const int ended = prof_capture_range_end("step", NULL);
  const int stopped = prof_stop();
  printf("%d %d %d %d\n", started, begun, ended, stopped);
  return 0;
}
