// The prof_host_api the agent hands each process-scope plugin: definitions
// go to the shared catalog, events to the thread's shared ring.
#pragma once

#include "core/runtime/source_lifecycle.hpp"
#include "core/agent/agent_state.hpp"

#include <prof/plugin.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prof::agent {

/// Who calls the host API in the application: a plugin instance, or the
/// agent itself (its step marks), which has no descriptor and no lifecycle.
struct PluginHost {
  PluginHost(std::string name, const prof_plugin_descriptor *descriptor,
             std::map<std::string, std::string> options = {});

  std::string name;
  const prof_plugin_descriptor *descriptor;
  std::map<std::string, std::string> options;
  std::optional<core::SourceLifecycle> lifecycle; ///< set for a plugin

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
