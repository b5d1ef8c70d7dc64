#include "core/plugin_host/source_instance.hpp"

#include "core/plugin_host/call_time_limit.hpp"
#include "core/runtime/host_emitters.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/host_api_table.hpp>

#include <spdlog/spdlog.h>

namespace prof::core {

// The functions behind prof_host_api; `host` is the SourceInstance.
struct SourceHostApi : HostEmitters<SourceHostApi> {
  static SourceInstance &self(void *host) { return *static_cast<SourceInstance *>(host); }
  static EventBus &bus(void *host) { return self(host).context_.bus; }
  // An event must name what its source declared: a track (never the root),
  // strings and a stack handed out. Others are refused and counted (a
  // slice on track 4242, never declared, reached the report before).
  static bool declared(void *host, const prof_event &e) {
    const Catalog &catalog = self(host).context_.catalog;
    const size_t strings = catalog.strings.size();
    return e.track != 0 && e.track < catalog.tracks.size() && e.name < strings &&
           e.category < strings && (e.type != PROF_EVENT_SAMPLE || e.id < catalog.stacks.size());
  }
  static void refuse(void *host) {
    self(host).invalid_events_.fetch_add(1, std::memory_order_relaxed);
    bus(host).count_lost(PROF_DROP_INVALID_EVENT, 1);
  }
  static void emit(void *host, const prof_event &event) {
    if (declared(host, event)) [[likely]]
      bus(host).emit(event);
    else
      refuse(host);
  }
  static void emit_group(void *host, const prof_event *records, uint32_t count) {
    // Its arguments records are checked where they are folded into sets.
    if (count > 0 && declared(host, records[0])) [[likely]]
      bus(host).emit_group(records, count);
    else
      refuse(host);
  }

  static prof_string_id intern_string(void *host, const char *text, size_t length) {
    if (text == nullptr) return 0;
    return self(host).context_.catalog.strings.intern(std::string_view(text, length));
  }
  static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
    TrackTable &tracks = self(host).context_.catalog.tracks;
    prof_track_id id = tracks.declare(desc);
    if (id == 0) log(host, PROF_LOG_WARN, ("declare_track refused: " + tracks.last_error()).c_str());
    return id;
  }
  static prof_stack_id intern_stack(void *host, const prof_string_id *frames, uint32_t count) {
    if (frames == nullptr && count > 0) return 0;
    return self(host).context_.catalog.stacks.intern({frames, count});
  }
  static prof_clock_id register_clock_domain(void *host, const char *name, double frequency_hz) {
    if (name == nullptr) return 0;
    return self(host).context_.catalog.clocks.add(name, frequency_hz);
  }
  static void add_calibration(void *host, prof_clock_id clock, uint64_t ticks, uint64_t ns) {
    if (clock == PROF_CLOCK_SESSION) return;
    if (ClockDomain *domain = self(host).context_.catalog.clocks.find(clock))
      domain->add_calibration(ticks, ns);
  }
  static void count_dropped(void *host, prof_drop_cause cause, uint64_t count) {
    // The host counts ring-full, invalid and catalog losses itself.
    if (cause == PROF_DROP_DEVICE_BUFFER_FULL || cause == PROF_DROP_KERNEL_LOST)
      bus(host).count_lost(cause, count);
  }
  static uint64_t now(void *) { return session_now_ns(); }
  static void log(void *host, prof_log_level level, const char *message) {
    SourceInstance &s = self(host);
    const std::string text = message ? message : "";
    const std::string &name = s.plugin_.name;
    switch (level) {
    case PROF_LOG_DEBUG: spdlog::debug("[{}] {}", name, text); break;
    case PROF_LOG_INFO: spdlog::info("[{}] {}", name, text); break;
    case PROF_LOG_WARN: s.context_.console.warning(with_plugin_name(name, text)); break;
    default:
      // Inside a call the error explains its failure; otherwise show it now.
      if (!s.lifecycle_.keep_error(text))
        s.context_.console.warning(with_plugin_name(name, text));
      break;
    }
  }
  static const char *get_option(void *host, const char *name) {
    return self(host).options_.get(name);
  }
  static const prof_session_info *session_info(void *host) { return &self(host).context_.session; }
};

const prof_host_api SourceInstance::host_api_ = host_api_table<SourceHostApi>();

SourceInstance::SourceInstance(const PluginInfo &plugin, OptionValues options,
                               CaptureContext &context)
    : plugin_(plugin), options_(std::move(options)), context_(context),
      lifecycle_(plugin.name, *plugin.source, plugin.path.string()) {}

SourceInstance::~SourceInstance() { stop(); }

bool SourceInstance::create() { return lifecycle_.create(host_api_, this); }

bool SourceInstance::configure() {
  // A configure that never returns would leave prof waiting forever.
  const CallTimeLimit limit("plugin '" + plugin_.name + "': configure", std::chrono::seconds(10));
  return lifecycle_.configure();
}
bool SourceInstance::start() { return lifecycle_.start(); }
bool SourceInstance::stop() {
  if (!lifecycle_.running()) return true;
  const bool stopped = lifecycle_.stop();
  if (const uint64_t refused = invalid_events_.load(std::memory_order_relaxed))
    context_.console.warning(with_plugin_name(
        plugin_.name, std::to_string(refused) +
                          " events named a track, string or stack the plugin never declared; "
                          "they were refused, and the report counts them"));
  return stopped;
}
bool SourceInstance::suspend() { return lifecycle_.suspend(); }
bool SourceInstance::resume() { return lifecycle_.resume(); }
bool SourceInstance::flush() { return lifecycle_.flush(); }

bool SourceInstance::query(const std::string &what, void (*print)(void *, const char *),
                           void *ctx) {
  return lifecycle_.query(what, print, ctx);
}

} // namespace prof::core
