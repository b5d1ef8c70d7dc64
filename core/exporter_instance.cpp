#include "core/exporter_instance.hpp"

#include <spdlog/spdlog.h>

namespace prof::core {

// The functions behind prof_export_api; `host` is the ExporterInstance.
struct ExportHostApi {
  static ExporterInstance &self(void *host) { return *static_cast<ExporterInstance *>(host); }

  static const char *string(void *host, prof_string_id id) {
    return self(host).catalog_.strings.text(id).c_str();
  }
  static const prof_track_desc *track(void *host, prof_track_id id) {
    const TrackEntry *entry = self(host).catalog_.tracks.find(id);
    return entry ? &entry->desc : nullptr;
  }
  static const prof_string_id *stack(void *host, prof_stack_id id, uint32_t *count) {
    auto frames = self(host).catalog_.stacks.frames(id);
    if (count) *count = static_cast<uint32_t>(frames.size());
    return frames.data();
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }
  static void print(void *host, const char *line) { self(host).console_.line(line ? line : ""); }
  static void log(void *host, prof_log_level level, const char *message) {
    ExporterInstance &s = self(host);
    const std::string text = message ? message : "";
    switch (level) {
    case PROF_LOG_DEBUG: spdlog::debug("[{}] {}", s.plugin_.name, text); break;
    case PROF_LOG_INFO: spdlog::info("[{}] {}", s.plugin_.name, text); break;
    case PROF_LOG_WARN: s.console_.warning(with_plugin_name(s.plugin_.name, text)); break;
    default: s.last_logged_error_ = text; break;
    }
  }
  static const char *get_option(void *host, const char *name) {
    return self(host).options_.get(name);
  }
  static uint64_t dropped_events(void *host) { return self(host).dropped_; }
  static const prof_arg *args(void *host, prof_args_id id, uint32_t *count) {
    auto args = self(host).catalog_.args.args(id);
    if (count) *count = static_cast<uint32_t>(args.size());
    return args.empty() ? nullptr : args.data();
  }
};

const prof_export_api ExporterInstance::export_api_ = {
    sizeof(prof_export_api), &ExportHostApi::string,       &ExportHostApi::track,
    &ExportHostApi::stack,   &ExportHostApi::session_info, &ExportHostApi::print,
    &ExportHostApi::log,     &ExportHostApi::get_option,   &ExportHostApi::dropped_events,
    &ExportHostApi::args,
};

ExporterInstance::ExporterInstance(const PluginInfo &plugin, OptionValues options,
                                   const Catalog &catalog, Console &console,
                                   const prof_session_info &session)
    : plugin_(plugin), options_(std::move(options)), catalog_(catalog), console_(console),
      session_(session) {}

ExporterInstance::~ExporterInstance() {
  if (instance_) plugin_.exporter->destroy(instance_);
}

void ExporterInstance::fail(const char *step) {
  if (!error_.empty()) return; // keep the first failure
  error_ = "plugin '" + plugin_.name + "': " + step + " failed" +
           (last_logged_error_.empty() ? "" : ": " + last_logged_error_);
}

bool ExporterInstance::open() {
  instance_ = plugin_.exporter->create(&export_api_, this);
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
  dropped_ = end.dropped;
  if (plugin_.exporter->end && plugin_.exporter->end(instance_) != PROF_OK) fail("end");
}

} // namespace prof::core
