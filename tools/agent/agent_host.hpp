// The prof_host_api the agent hands each process-scope plugin: definitions
// go to the shared catalog, events to the thread's shared ring.
#pragma once

#include "tools/agent/agent_state.hpp"

#include <prof/plugin.h>

#include <map>
#include <string>
#include <vector>

namespace prof::agent {

/// One plugin instance's view of the host.
struct PluginHost {
  std::string name;
  const prof_plugin_descriptor *descriptor = nullptr;
  std::map<std::string, std::string> options;
  void *instance = nullptr;
  std::string last_error;

  /// The option's value, its default, or nullptr.
  const char *option(const char *key) const;
};

/// The function table; `host` is a PluginHost.
const prof_host_api &agent_host_api();

/// Has each of `plugins` that can emit its slices unfinished at `now`
/// (prof_source_vtable::emit_unfinished), marked PROF_SLICE_UNFINISHED.
void emit_unfinished_slices(const std::vector<PluginHost *> &plugins, uint64_t now);
/// The same slices, kept here instead of emitted (their arguments left out).
std::vector<prof_event> collect_unfinished_slices(const std::vector<PluginHost *> &plugins,
                                                  uint64_t now);

} // namespace prof::agent
