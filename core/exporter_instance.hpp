// One exporter plugin fed as an event sink, with the prof_export_api it is
// handed. Works the same on a live capture and on a report read back.
#pragma once

#include "core/catalog.hpp"
#include "core/console.hpp"
#include "core/event_sink.hpp"
#include "core/option_values.hpp"
#include "core/plugin_registry.hpp"

#include <prof/plugin.h>

#include <string>

namespace prof::core {

class ExporterInstance final : public EventSink {
public:
  ExporterInstance(const PluginInfo &plugin, OptionValues options, const Catalog &catalog,
                   Console &console, const prof_session_info &session);
  ~ExporterInstance() override;
  ExporterInstance(const ExporterInstance &) = delete;
  ExporterInstance &operator=(const ExporterInstance &) = delete;

  /// create + begin; false with error() set.
  bool open();
  void consume(const prof_event *events, size_t count) override;
  /// Calls the plugin's end(); check failed() afterwards.
  void finish(const Catalog &catalog, const CaptureEnd &end) override;

  bool failed() const { return !error_.empty(); }
  const std::string &error() const { return error_; }
  const PluginInfo &plugin() const { return plugin_; }

private:
  void fail(const char *step);
  static const prof_export_api export_api_;
  friend struct ExportHostApi;

  const PluginInfo &plugin_;
  OptionValues options_;
  const Catalog &catalog_;
  Console &console_;
  const prof_session_info &session_;
  void *instance_ = nullptr;
  uint64_t dropped_ = 0;
  std::string error_;
  std::string last_logged_error_;
};

} // namespace prof::core
