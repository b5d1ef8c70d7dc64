/* A plugin that never hands over its descriptor: built with
 * FAULT_CRASH_ON_LOAD its entry point dereferences a null pointer, with
 * FAULT_HANG_ON_LOAD it waits forever. prof --plugin-list must name it and
 * list the others. */
#include <prof/plugin.h>

#include <unistd.h>

PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry(void) {
#if defined(FAULT_CRASH_ON_LOAD)
  volatile int *nowhere = 0;
  *nowhere = 1;
#elif defined(FAULT_HANG_ON_LOAD)
  for (;;)
    pause();
#endif
  return 0;
}
