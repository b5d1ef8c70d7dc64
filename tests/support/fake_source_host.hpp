// A stand-in for the prof core on the source side: records the tracks a
// source declares, the counters it emits and every line it logs, from any thread.
#ifndef PROF_TESTS_SUPPORT_FAKE_SOURCE_HOST_HPP
#define PROF_TESTS_SUPPORT_FAKE_SOURCE_HOST_HPP

#include <cstddef>
#include <prof/plugin.h>

#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace prof::testing {

class FakeSourceHost {
public:
  struct Track {
    prof_track_id id;
    prof_track_kind kind;
    prof_track_id parent;
    std::string name;
    int pid;
    int index;
    std::string unit;
  };
  struct Counter {
    prof_track_id track;
    uint64_t ts;
    double value;
  };
  struct LogLine {
    prof_log_level level;
    std::string text;
  };

  /// `target_pid` is the session's target, 0 for none.
  explicit FakeSourceHost(int target_pid = 0) {
    session_.struct_size = sizeof session_;
    session_.session_name = "test";
    session_.target_pid = target_pid;
    session_.command = "";
    session_.hostname = "localhost";
  }

  void set_option(const std::string &name, const std::string &value) {
    std::lock_guard lock(mutex_);
    options_[name] = value;
  }
  std::vector<Track> tracks() const {
    std::lock_guard lock(mutex_);
    return tracks_;
  }
  std::vector<Counter> counters() const {
    std::lock_guard lock(mutex_);
    return counters_;
  }
  std::vector<std::string> logs(prof_log_level level) const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> lines;
    for (const LogLine &line : logs_)
      if (line.level == level) lines.push_back(line.text);
    return lines;
  }
  std::vector<std::string> errors() const { return logs(PROF_LOG_ERROR); }
  /// The counter track `name` under the network track `device`.
  std::optional<Track> counter_track(const std::string &device, const std::string &name) const {
    std::lock_guard lock(mutex_);
    for (const Track &parent : tracks_) {
      if (parent.kind != PROF_TRACK_NETWORK || parent.name != device) continue;
      for (const Track &child : tracks_)
        if (child.parent == parent.id && child.name == name) return child;
    }
    return std::nullopt;
  }
  /// Values emitted on `track`, in order, with their timestamps.
  std::vector<Counter> values(prof_track_id track) const {
    std::vector<Counter> found;
    for (const Counter &counter : counters())
      if (counter.track == track) found.push_back(counter);
    return found;
  }
  const prof_host_api *api() const { return &kApi; }

private:
  static FakeSourceHost &self(void *host) { return *static_cast<FakeSourceHost *>(host); }

  static prof_string_id intern_string(void *host, const char *text, size_t length) {
    FakeSourceHost &h = self(host);
    std::lock_guard lock(h.mutex_);
    auto [it, added] = h.strings_.emplace(std::string(text, length), h.strings_.size() + 1);
    return it->second;
  }
  static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
    FakeSourceHost &h = self(host);
    std::lock_guard lock(h.mutex_);
    const auto id = static_cast<prof_track_id>(h.tracks_.size() + 1);
    h.tracks_.push_back(Track{id, desc->kind, desc->parent, desc->name, desc->pid, desc->index,
                              desc->unit ? desc->unit : ""});
    return id;
  }
  static prof_stack_id intern_stack(void *, const prof_string_id *, uint32_t) { return 0; }
  static void emit_slice(void *, prof_track_id, uint64_t, uint64_t, prof_string_id, prof_string_id,
                         uint64_t) {}
  static void emit_instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
  static void emit_counter(void *host, prof_track_id track, uint64_t ts, double value) {
    FakeSourceHost &h = self(host);
    std::lock_guard lock(h.mutex_);
    h.counters_.push_back({track, ts, value});
  }
  static void emit_sample(void *, prof_track_id, uint64_t, prof_stack_id) {}
  static void emit_flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
  static prof_clock_id register_clock_domain(void *, const char *, double) { return 0; }
  static void add_calibration(void *, prof_clock_id, uint64_t, uint64_t) {}
  static uint64_t now(void *) {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }
  static void log(void *host, prof_log_level level, const char *message) {
    FakeSourceHost &h = self(host);
    std::lock_guard lock(h.mutex_);
    h.logs_.push_back({level, message});
  }
  static const char *get_option(void *host, const char *name) {
    FakeSourceHost &h = self(host);
    std::lock_guard lock(h.mutex_);
    auto found = h.options_.find(name);
    return found == h.options_.end() ? nullptr : found->second.c_str();
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }

  static constexpr prof_host_api kApi{offsetof(prof_host_api, emit_stack),
                                      &intern_string, // an ABI 1.1 host
                                      &declare_track,
                                      &intern_stack,
                                      &emit_slice,
                                      &emit_instant,
                                      &emit_counter,
                                      &emit_sample,
                                      &emit_flow,
                                      &register_clock_domain,
                                      &add_calibration,
                                      &now,
                                      &log,
                                      &get_option,
                                      &session_info};

  mutable std::mutex mutex_;
  std::map<std::string, prof_string_id> strings_;
  std::vector<Track> tracks_;
  std::vector<Counter> counters_;
  std::vector<LogLine> logs_;
  std::map<std::string, std::string> options_;
  prof_session_info session_{};
};

} // namespace prof::testing

#endif
