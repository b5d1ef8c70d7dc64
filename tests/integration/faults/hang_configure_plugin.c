/* A broken source for the fault suite: its configure never returns. prof
 * must say so after its time limit and end, not wait forever. */
#include <prof/plugin.h>

#include <stddef.h>
#include <unistd.h>

static int instance_marker;

static void *hang_create(const prof_host_api *api, void *host) {
  (void)api;
  (void)host;
  return &instance_marker;
}
static void hang_destroy(void *instance) { (void)instance; }
static prof_status hang_forever(void *instance) {
  (void)instance;
  for (;;)
    pause();
  return PROF_OK;
}
static prof_status hang_ok(void *instance) {
  (void)instance;
  return PROF_OK;
}

static const prof_source_vtable hang_vtable = {sizeof(prof_source_vtable),
                                               hang_create,
                                               hang_destroy,
                                               NULL,
                                               hang_forever,
                                               hang_ok,
                                               hang_ok,
                                               hang_ok,
                                               hang_ok,
                                               hang_ok};

static const prof_plugin_descriptor hang_descriptor = {
    sizeof(prof_plugin_descriptor),
    PROF_ABI_MAJOR,
    PROF_ABI_MINOR,
    "hang-configure",
    "1.0.0",
    "a fault-suite source whose configure never returns",
    PROF_KIND_SOURCE,
    PROF_SCOPE_SYSTEM,
    NULL,
    0,
    &hang_vtable,
    NULL,
    "prof tests",
};

PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry(void) {
  return &hang_descriptor;
}
