/* A process-scope source that writes through a null pointer as it starts,
 * inside the application: the crash witness must name it as the fault. */
#include <prof/plugin.h>

#include <stddef.h>

static int instance_marker;

static void *fault_create(const prof_host_api *api, void *host) {
  (void)api;
  (void)host;
  return &instance_marker;
}
static void fault_destroy(void *instance) { (void)instance; }
static prof_status fault_ok(void *instance) {
  (void)instance;
  return PROF_OK;
}
__attribute__((noinline)) static prof_status fault_in_start(void *instance) {
  volatile int *nowhere = NULL;
  *nowhere = instance != NULL;
  return PROF_OK;
}

static const prof_source_vtable fault_vtable = {sizeof(prof_source_vtable),
                                                fault_create,
                                                fault_destroy,
                                                NULL,
                                                fault_ok,
                                                fault_in_start,
                                                fault_ok,
                                                fault_ok,
                                                fault_ok,
                                                fault_ok};

static const prof_plugin_descriptor fault_descriptor = {
    sizeof(prof_plugin_descriptor),
    PROF_ABI_MAJOR,
    PROF_ABI_MINOR,
    "fault-in-start",
    "1.0.0",
    "a fault-suite source that faults as it starts inside the application",
    PROF_KIND_SOURCE,
    PROF_SCOPE_PROCESS,
    NULL,
    0,
    &fault_vtable,
    NULL,
    "prof tests",
};

PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry(void) {
  return &fault_descriptor;
}
