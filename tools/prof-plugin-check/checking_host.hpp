// The host a checked source runs against: prof_host_api over core's own
// pieces (the catalog's string, track, stack and clock tables, and the emit
// functions of core/runtime/host_emitters.hpp, as prof's and the agent's hosts), with
// every emitted event handed to an EventChecker instead of a ring.
#pragma once

#include "tools/prof-plugin-check/event_checker.hpp"

#include "core/catalog/catalog.hpp"
#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <prof/plugin.h>

#include <atomic>
#include <mutex>
#include <string>

namespace prof::plugin_check {

/// Where the source stands, as far as emits are concerned.
enum class SourcePhase {
  idle,     ///< created or configured, not stopped yet: emits are allowed
  stopped,  ///< stop() returned: no emit until start() or flush()
  flushing, ///< inside flush(): emits are allowed
};

class CheckingHost {
public:
  CheckingHost(const core::PluginInfo &plugin, core::OptionValues options, EventFindings &findings);
  CheckingHost(const CheckingHost &) = delete;
  CheckingHost &operator=(const CheckingHost &) = delete;

  const prof_host_api *api() const { return &api_; }
  void *context() { return this; }
  void set_phase(SourcePhase phase) { phase_.store(phase, std::memory_order_release); }
  /// The last error the plugin logged since the previous call, "" if none.
  std::string take_error();
  /// Flows without an end, reported once the source is gone.
  void finish() { checker_.finish(); }

private:
  friend struct CheckingHostApi;
  static const prof_host_api api_;

  const core::PluginInfo &plugin_;
  core::OptionValues options_;
  core::Catalog catalog_;
  EventChecker checker_;
  prof_session_info session_{};
  int32_t pid_ = 0;
  std::string session_name_ = "plugin-check";
  std::string hostname_;
  std::atomic<SourcePhase> phase_{SourcePhase::idle};
  std::mutex mutex_;
  std::string last_error_;
};

} // namespace prof::plugin_check
