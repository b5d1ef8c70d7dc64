#include "core/plugin_host/exporter_instance.hpp"

#include <spdlog/spdlog.h>

namespace prof::core {

const char *ExporterInstance::option(const char *name) const { return options_.get(name); }

void ExporterInstance::print(std::string_view line) { console_.line(std::string(line)); }

void ExporterInstance::log(prof_log_level level, std::string_view message) {
  switch (level) {
  case PROF_LOG_DEBUG:
    spdlog::debug("[{}] {}", plugin_.name, message);
    break;
  case PROF_LOG_INFO:
    spdlog::info("[{}] {}", plugin_.name, message);
    break;
  case PROF_LOG_WARN:
    console_.warning(with_plugin_name(plugin_.name, std::string(message)));
    break;
  default:
    last_logged_error_ = message;
    break;
  }
}

ExporterInstance::ExporterInstance(const PluginInfo &plugin, OptionValues options,
                                   const Catalog &catalog, Console &console,
                                   const prof_session_info &session)
    : CatalogExportView(catalog, session), plugin_(plugin), options_(std::move(options)),
      console_(console) {}

ExporterInstance::~ExporterInstance() {
  if (instance_) plugin_.exporter->destroy(instance_);
}

void ExporterInstance::fail(const char *step) {
  if (!error_.empty()) return; // keep the first failure
  error_ = "plugin '" + plugin_.name + "': " + step + " failed" +
           (last_logged_error_.empty() ? "" : ": " + last_logged_error_);
}

bool ExporterInstance::open() {
  // The plugin reads through this instance's view; its host pointer is that base.
  instance_ = plugin_.exporter->create(&export_api(), static_cast<ExportView *>(this));
  if (!instance_) {
    error_ = "plugin '" + plugin_.name + "' (" + plugin_.path.string() + "): create failed" +
             (last_logged_error_.empty() ? "" : ": " + last_logged_error_);
    return false;
  }
  if (plugin_.exporter->begin && plugin_.exporter->begin(instance_) != PROF_OK) {
    fail("begin");
    return false;
  }
  return true;
}

void ExporterInstance::consume(const prof_event *events, size_t count) {
  if (!instance_ || failed()) return;
  if (plugin_.exporter->consume(instance_, events, count) != PROF_OK) fail("consume");
}

void ExporterInstance::finish(const Catalog &, const CaptureEnd &end) {
  if (!instance_ || failed()) return;
  set_drops(end);
  if (plugin_.exporter->end && plugin_.exporter->end(instance_) != PROF_OK) fail("end");
}

} // namespace prof::core
