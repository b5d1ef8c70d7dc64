#include "core/source_instance.hpp"

#include "core/session_clock.hpp"

#include <spdlog/spdlog.h>

namespace prof::core {

// The functions behind prof_host_api; `host` is the SourceInstance.
struct SourceHostApi {
  static SourceInstance &self(void *host) { return *static_cast<SourceInstance *>(host); }
  static EventBus &bus(void *host) { return self(host).context_.bus; }

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
  static void emit_slice(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                         prof_string_id name, prof_string_id category, uint64_t correlation) {
    prof_event e;
    e.type = PROF_EVENT_SLICE;
    e.flags = 0;
    e.reserved = 0;
    e.track = track;
    e.name = name;
    e.category = category;
    e.ts = begin;
    e.duration = duration;
    e.id = correlation;
    e.value = 0;
    bus(host).emit(e);
  }
  static void emit_instant(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                           prof_string_id category) {
    bus(host).emit(prof_event{PROF_EVENT_INSTANT, 0, 0, track, name, category, ts, 0, 0, 0});
  }
  static void emit_counter(void *host, prof_track_id track, uint64_t ts, double value) {
    bus(host).emit(prof_event{PROF_EVENT_COUNTER, 0, 0, track, 0, 0, ts, 0, 0, value});
  }
  static void emit_counter_for(void *host, prof_track_id track, uint64_t ts, double value,
                               uint64_t correlation) {
    bus(host).emit(prof_event{PROF_EVENT_COUNTER, 0, 0, track, 0, 0, ts, 0, correlation, value});
  }
  static void emit_sample(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack) {
    bus(host).emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, 0, ts, 0, stack, 0});
  }
  static void emit_stack(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack,
                         prof_string_id category) {
    bus(host).emit(prof_event{PROF_EVENT_SAMPLE, 0, 0, track, 0, category, ts, 0, stack, 0});
  }
  static void emit_flow(void *host, prof_track_id track, uint64_t ts, uint64_t flow_id,
                        prof_flow_phase phase) {
    bus(host).emit(prof_event{PROF_EVENT_FLOW, static_cast<uint8_t>(phase), 0, track, 0, 0, ts,
                              0, flow_id, 0});
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
      if (s.in_call_) s.last_logged_error_ = text;
      else s.context_.console.warning(with_plugin_name(name, text));
      break;
    }
  }
  static const char *get_option(void *host, const char *name) {
    return self(host).options_.get(name);
  }
  static const prof_session_info *session_info(void *host) { return &self(host).context_.session; }
};

const prof_host_api SourceInstance::host_api_ = {
    sizeof(prof_host_api),           &SourceHostApi::intern_string,
    &SourceHostApi::declare_track,   &SourceHostApi::intern_stack,
    &SourceHostApi::emit_slice,      &SourceHostApi::emit_instant,
    &SourceHostApi::emit_counter,    &SourceHostApi::emit_sample,
    &SourceHostApi::emit_flow,       &SourceHostApi::register_clock_domain,
    &SourceHostApi::add_calibration, &SourceHostApi::now,
    &SourceHostApi::log,             &SourceHostApi::get_option,
    &SourceHostApi::session_info,    &SourceHostApi::emit_stack,
    &SourceHostApi::emit_counter_for,
};

SourceInstance::SourceInstance(const PluginInfo &plugin, OptionValues options,
                               CaptureContext &context)
    : plugin_(plugin), options_(std::move(options)), context_(context) {}

SourceInstance::~SourceInstance() {
  if (started_) stop();
  if (instance_) plugin_.source->destroy(instance_);
}

bool SourceInstance::create() {
  last_logged_error_.clear();
  in_call_ = true;
  instance_ = plugin_.source->create(&host_api_, this);
  in_call_ = false;
  if (instance_) return true;
  error_ = "plugin '" + plugin_.name + "' (" + plugin_.path.string() + "): create failed" +
           (last_logged_error_.empty() ? "" : ": " + last_logged_error_);
  return false;
}

bool SourceInstance::call(const char *step, prof_status (*fn)(void *)) {
  if (instance_ == nullptr) {
    error_ = "plugin '" + plugin_.name + "': " + step + " before create";
    return false;
  }
  if (fn == nullptr) return true; // an optional step the plugin does not need
  last_logged_error_.clear();
  in_call_ = true;
  const prof_status status = fn(instance_);
  in_call_ = false;
  if (status == PROF_OK) return true;
  error_ = "plugin '" + plugin_.name + "': " + step + " failed" +
           (last_logged_error_.empty() ? "" : ": " + last_logged_error_);
  return false;
}

bool SourceInstance::configure() { return call("configure", plugin_.source->configure); }
bool SourceInstance::start() { return started_ = call("start", plugin_.source->start); }
bool SourceInstance::stop() {
  if (!started_) return true;
  started_ = false;
  return call("stop", plugin_.source->stop);
}
bool SourceInstance::suspend() { return call("suspend", plugin_.source->suspend); }
bool SourceInstance::resume() { return call("resume", plugin_.source->resume); }
bool SourceInstance::flush() { return call("flush", plugin_.source->flush); }

bool SourceInstance::query(const std::string &what, void (*print)(void *, const char *),
                           void *ctx) {
  error_.clear();
  if (!instance_ || !plugin_.source->query) return false;
  last_logged_error_.clear();
  in_call_ = true;
  const prof_status status = plugin_.source->query(instance_, what.c_str(), print, ctx);
  in_call_ = false;
  if (status == PROF_OK) return true;
  // A plugin that does not know the query says nothing; one that failed at it says why.
  if (!last_logged_error_.empty()) error_ = "plugin '" + plugin_.name + "': " + last_logged_error_;
  return false;
}

} // namespace prof::core
