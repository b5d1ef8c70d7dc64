// One running source plugin and the prof_host_api it is handed: interning,
// track declaration and emits land in the session's catalog and event bus.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/events/event_bus.hpp"
#include "core/plugin_host/console.hpp"
#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"
#include "core/runtime/source_lifecycle.hpp"

#include <prof/plugin.h>

#include <atomic>
#include <string>

namespace prof::core {

/// What every plugin instance of a capture shares.
struct CaptureContext {
  Catalog &catalog;
  EventBus &bus;
  Console &console;
  prof_session_info session{};
};

class SourceInstance {
public:
  SourceInstance(const PluginInfo &plugin, OptionValues options, CaptureContext &context);
  ~SourceInstance();
  SourceInstance(const SourceInstance &) = delete;
  SourceInstance &operator=(const SourceInstance &) = delete;

  /// Each returns false with error() set to "plugin 'NAME': STEP failed: REASON".
  bool create();
  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();
  /// Prints the answer to a query through `print`; false when unsupported
  /// (error() then says why if the plugin failed at it).
  bool query(const std::string &what, void (*print)(void *, const char *), void *ctx);

  const PluginInfo &plugin() const { return plugin_; }
  const OptionValues &options() const { return options_; }
  const std::string &error() const { return lifecycle_.error(); }
  bool running() const { return lifecycle_.running(); }

private:
  static const prof_host_api host_api_;
  friend struct SourceHostApi;

  const PluginInfo &plugin_;
  OptionValues options_;
  CaptureContext &context_;
  SourceLifecycle lifecycle_;
  std::atomic<uint64_t> invalid_events_{0}; ///< refused: undeclared track, string or stack
};

} // namespace prof::core
