// A stand-in for the prof core that a source plugin talks to: keeps every
// string, stack, track, sample, slice, counter and log line, from any thread.
#ifndef PROF_TESTS_CPU_PERF_FAKE_PERF_HOST_HPP
#define PROF_TESTS_CPU_PERF_FAKE_PERF_HOST_HPP

#include <cstddef>
#include <prof/plugin.h>

#include <ctime>
#include <map>
#include <mutex>
#include <string>
#include <vector>

namespace prof::testing {

class FakePerfHost {
public:
  struct Track {
    prof_track_kind kind;
    prof_track_id parent;
    std::string name;
    int pid, tid, index;
  };
  struct Sample {
    prof_track_id track;
    uint64_t ts;
    prof_stack_id stack;
  };
  struct Slice {
    prof_track_id track;
    uint64_t begin, duration;
    std::string name, category;
  };
  struct Counter {
    prof_track_id track;
    uint64_t ts;
    double value;
  };
  struct Log {
    prof_log_level level;
    std::string text;
  };

  explicit FakePerfHost(int target_pid) {
    session_.struct_size = sizeof session_;
    session_.session_name = "test";
    session_.target_pid = target_pid;
    session_.command = "";
    session_.hostname = "localhost";
  }
  void set_option(const std::string &name, const std::string &value) { options_[name] = value; }
  const prof_host_api *api() const { return &kApi; }

  // Read after the plugin is done (no lock needed then).
  std::vector<std::string> strings{""};
  std::vector<std::vector<prof_string_id>> stacks{{}};
  std::vector<Track> tracks{{}}; ///< [0] unused: ids start at 1
  std::vector<Sample> samples;
  std::vector<Slice> slices;
  std::vector<Counter> counters;
  std::vector<Log> logs;

  /// The frames of a stack as text, leaf first.
  std::vector<std::string> frames(prof_stack_id id) const {
    std::vector<std::string> out;
    for (prof_string_id s : stacks.at(id)) out.push_back(strings.at(s));
    return out;
  }
  bool logged(prof_log_level level, const std::string &part) const {
    for (const auto &l : logs)
      if (l.level == level && l.text.find(part) != std::string::npos) return true;
    return false;
  }

private:
  static FakePerfHost &self(void *h) { return *static_cast<FakePerfHost *>(h); }
  static prof_string_id intern_string(void *h, const char *text, size_t n) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    auto [it, added] = s.string_ids_.emplace(std::string(text, n), s.strings.size());
    if (added) s.strings.emplace_back(text, n);
    return static_cast<prof_string_id>(it->second);
  }
  static prof_track_id declare_track(void *h, const prof_track_desc *d) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.tracks.push_back({d->kind, d->parent, d->name, d->pid, d->tid, d->index});
    return static_cast<prof_track_id>(s.tracks.size() - 1);
  }
  static prof_stack_id intern_stack(void *h, const prof_string_id *frames, uint32_t count) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.stacks.emplace_back(frames, frames + count);
    return static_cast<prof_stack_id>(s.stacks.size() - 1);
  }
  static void emit_slice(void *h, prof_track_id t, uint64_t b, uint64_t d, prof_string_id name,
                         prof_string_id category, uint64_t) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.slices.push_back({t, b, d, s.strings.at(name), s.strings.at(category)});
  }
  static void emit_instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
  static void emit_counter(void *h, prof_track_id t, uint64_t ts, double v) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.counters.push_back({t, ts, v});
  }
  static void emit_sample(void *h, prof_track_id t, uint64_t ts, prof_stack_id stack) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.samples.push_back({t, ts, stack});
  }
  static void emit_flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
  static prof_clock_id register_clock_domain(void *, const char *, double) { return 0; }
  static void add_calibration(void *, prof_clock_id, uint64_t, uint64_t) {}
  static uint64_t now(void *) {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return static_cast<uint64_t>(ts.tv_sec) * 1000000000ull + static_cast<uint64_t>(ts.tv_nsec);
  }
  static void log(void *h, prof_log_level level, const char *message) {
    auto &s = self(h);
    std::lock_guard lock(s.mutex_);
    s.logs.push_back({level, message});
  }
  static const char *get_option(void *h, const char *name) {
    auto &s = self(h);
    auto found = s.options_.find(name);
    return found == s.options_.end() ? nullptr : found->second.c_str();
  }
  static const prof_session_info *session_info(void *h) { return &self(h).session_; }

  static constexpr prof_host_api kApi{
      offsetof(prof_host_api, emit_stack), &intern_string, // an ABI 1.1 host
      &declare_track, &intern_stack, &emit_slice,
      &emit_instant,         &emit_counter,  &emit_sample,   &emit_flow,    &register_clock_domain,
      &add_calibration,      &now,           &log,           &get_option,   &session_info};

  std::mutex mutex_;
  std::map<std::string, size_t> string_ids_{{"", 0}};
  std::map<std::string, std::string> options_;
  prof_session_info session_{};
};

} // namespace prof::testing

#endif
