/* A broken source for the fault suite: at start it declares one thread
 * track and emits one good slice on it, then a slice on track 4242 (never
 * declared), a slice whose name is a string id never handed out, and a
 * sample with a stack never interned. prof keeps the first and refuses and
 * counts the other three. */
#include <prof/plugin.h>

#include <stddef.h>
#include <unistd.h>

static const prof_host_api *host_api;
static void *host_context;
static int instance_marker;

static void *undeclared_create(const prof_host_api *api, void *host) {
  host_api = api;
  host_context = host;
  return &instance_marker;
}
static void undeclared_destroy(void *instance) { (void)instance; }
static prof_status undeclared_ok(void *instance) {
  (void)instance;
  return PROF_OK;
}
static prof_status undeclared_start(void *instance) {
  (void)instance;
  const prof_track_desc desc = {sizeof(prof_track_desc),
                                PROF_TRACK_THREAD,
                                0,
                                "undeclared thread",
                                (int32_t)getpid(),
                                (int32_t)getpid() + 1,
                                -1,
                                NULL,
                                0};
  const prof_track_id track = host_api->declare_track(host_context, &desc);
  const prof_string_id name = host_api->intern_string(host_context, "good slice", 10);
  const uint64_t now = host_api->now(host_context);
  host_api->emit_slice(host_context, track, now, 1000, name, 0, 0);
  host_api->emit_slice(host_context, 4242, now, 1000, name, 0, 0);
  host_api->emit_slice(host_context, track, now, 1000, 999999, 0, 0);
  host_api->emit_sample(host_context, track, now, 777777);
  return PROF_OK;
}

static const prof_source_vtable undeclared_vtable = {sizeof(prof_source_vtable),
                                                     undeclared_create,
                                                     undeclared_destroy,
                                                     NULL,
                                                     undeclared_ok,
                                                     undeclared_start,
                                                     undeclared_ok,
                                                     undeclared_ok,
                                                     undeclared_ok,
                                                     undeclared_ok};

static const prof_plugin_descriptor undeclared_descriptor = {
    sizeof(prof_plugin_descriptor),
    PROF_ABI_MAJOR,
    PROF_ABI_MINOR,
    "undeclared",
    "1.0.0",
    "a fault-suite source that emits on what it never declared",
    PROF_KIND_SOURCE,
    PROF_SCOPE_SYSTEM,
    NULL,
    0,
    &undeclared_vtable,
    NULL,
    "prof tests",
};

PROF_PLUGIN_EXPORT const prof_plugin_descriptor *prof_plugin_entry(void) {
  return &undeclared_descriptor;
}
