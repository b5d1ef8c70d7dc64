// One exporter plugin fed as an event sink. It reads the catalog through a
// CatalogExportView, with its own options, and its print and log going to
// the console. Works the same on a live capture and on a report read back.
#pragma once

#include "core/events/event_sink.hpp"
#include "core/plugin_host/catalog_export_view.hpp"
#include "core/plugin_host/console.hpp"
#include "core/plugin_host/option_values.hpp"
#include "core/plugin_host/plugin_registry.hpp"

#include <prof/plugin.h>

#include <string>

namespace prof::core {

class ExporterInstance final : public EventSink, private CatalogExportView {
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
  const char *option(const char *name) const override;
  void print(std::string_view line) override;
  void log(prof_log_level level, std::string_view message) override;

  const PluginInfo &plugin_;
  OptionValues options_;
  Console &console_;
  void *instance_ = nullptr;
  std::string error_;
  std::string last_logged_error_;
};

} // namespace prof::core
