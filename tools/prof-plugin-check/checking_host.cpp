#include "tools/prof-plugin-check/checking_host.hpp"

#include "core/runtime/host_emitters.hpp"
#include "core/runtime/session_clock.hpp"

#include <prof/host_api_table.hpp>

#include <unistd.h>

namespace prof::plugin_check {

// The functions behind prof_host_api; `host` is the CheckingHost.
struct CheckingHostApi : core::HostEmitters<CheckingHostApi> {
  static CheckingHost &self(void *host) { return *static_cast<CheckingHost *>(host); }
  static bool after_stop(void *host) {
    return self(host).phase_.load(std::memory_order_acquire) == SourcePhase::stopped;
  }
  // Where HostEmitters hands records: one event, or an event and its argument records.
  static void emit(void *host, const prof_event &event) {
    self(host).checker_.event(event, after_stop(host));
  }
  static void emit_group(void *host, const prof_event *records, uint32_t count) {
    if (count == 0) return;
    emit(host, records[0]);
    for (uint32_t i = 1; i < count; ++i)
      self(host).checker_.args_record(records[i]);
  }

  static prof_string_id intern_string(void *host, const char *text, size_t length) {
    self(host).checker_.string(text, length);
    if (text == nullptr) return 0;
    return self(host).catalog_.strings.intern(std::string_view(text, length));
  }
  static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
    core::TrackTable &tracks = self(host).catalog_.tracks;
    const prof_track_id id = tracks.declare(desc);
    if (id == 0) self(host).checker_.track_refused(tracks.last_error());
    return id;
  }
  static prof_stack_id intern_stack(void *host, const prof_string_id *frames, uint32_t count) {
    self(host).checker_.stack(frames, count);
    if (frames == nullptr && count > 0) return 0;
    return self(host).catalog_.stacks.intern({frames, count});
  }
  static prof_clock_id register_clock_domain(void *host, const char *name, double frequency_hz) {
    if (name == nullptr) return 0;
    return self(host).catalog_.clocks.add(name, frequency_hz);
  }
  static void add_calibration(void *host, prof_clock_id clock, uint64_t ticks, uint64_t ns) {
    if (core::ClockDomain *domain = self(host).catalog_.clocks.find(clock))
      domain->add_calibration(ticks, ns);
  }
  static void count_dropped(void *host, prof_drop_cause cause, uint64_t) {
    self(host).checker_.dropped(cause);
  }
  static uint64_t now(void *) { return core::session_now_ns(); }
  static void log(void *host, prof_log_level level, const char *message) {
    if (level < PROF_LOG_ERROR || message == nullptr) return;
    std::lock_guard lock(self(host).mutex_);
    self(host).last_error_ = message;
  }
  static const char *get_option(void *host, const char *name) {
    return self(host).options_.get(name);
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }
};

const prof_host_api CheckingHost::api_ = host_api_table<CheckingHostApi>();

CheckingHost::CheckingHost(const core::PluginInfo &plugin, core::OptionValues options,
                           EventFindings &findings)
    : plugin_(plugin), options_(std::move(options)), checker_(catalog_, findings),
      pid_(static_cast<int32_t>(getpid())) {
  char name[256] = {};
  gethostname(name, sizeof name - 1);
  hostname_ = name;
  // The checker is the profiled process: process-scope sources find their
  // target where they run.
  session_.struct_size = sizeof session_;
  session_.session_name = session_name_.c_str();
  session_.target_pid = pid_;
  session_.command = "";
  session_.hostname = hostname_.c_str();
  session_.realtime_anchor_ns = core::realtime_now_ns();
  session_.monotonic_anchor_ns = core::session_now_ns();
  session_.start_ns = session_.monotonic_anchor_ns;
  session_.pids = &pid_;
  session_.pid_count = 1;
  session_.plugins = "";
  session_.rank = "";
  catalog_.clocks.calibrate_tsc();
}

std::string CheckingHost::take_error() {
  std::lock_guard lock(mutex_);
  return std::exchange(last_error_, std::string());
}

} // namespace prof::plugin_check
