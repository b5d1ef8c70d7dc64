// SDK test support: a stand-in for the prof host that a source plugin talks
// to in its unit tests, no prof needed. Keeps every string, stack, track,
// slice, instant, flow, sample, counter and log line, from any thread.
// By default an ABI 1.1 host (no emit_stack, no arguments), the oldest host a
// source must serve; HostAbi::current offers every call of this SDK.
#ifndef PROF_TESTING_FAKE_SOURCE_HOST_HPP
#define PROF_TESTING_FAKE_SOURCE_HOST_HPP

#include <prof/event.hpp>
#include <prof/host_api_table.hpp>
#include <prof/plugin.h>

#include <cstddef>
#include <ctime>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

namespace prof::testing {

/// Which host table a FakeSourceHost offers.
enum class HostAbi {
  oldest,  ///< ABI 1.1: what a source must still work with
  current, ///< every call of this SDK (stacks, counters with ids, arguments)
};

class FakeSourceHost {
public:
  struct Track {
    prof_track_id id;
    prof_track_kind kind;
    prof_track_id parent;
    std::string name;
    int pid, tid, index;
    std::string unit;
    uint32_t flags = 0; ///< PROF_TRACK_* bits (ABI 1.10)
  };
  struct Slice {
    prof_track_id track;
    uint64_t begin, duration;
    std::string name, category;
    uint64_t correlation = 0;
    uint16_t kind = 0;                              ///< prof_category
    std::map<std::string, std::string> args = {};   ///< key -> value as text
    std::map<std::string, uint32_t> arg_types = {}; ///< key -> prof_arg_type
  };
  struct Instant {
    prof_track_id track;
    uint64_t ts;
    std::string name, category;
    uint16_t kind = 0;
    std::map<std::string, std::string> args = {};
  };
  struct Flow {
    prof_track_id track;
    uint64_t ts, id;
    prof_flow_phase phase;
  };
  struct Sample {
    prof_track_id track;
    uint64_t ts;
    prof_stack_id stack;
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
  explicit FakeSourceHost(int target_pid = 0, HostAbi abi = HostAbi::oldest)
      : api_(abi == HostAbi::oldest ? &kOldestApi : &kCurrentApi) {
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
  const prof_host_api *api() const { return api_; }

  std::vector<Track> tracks() const { return copy(tracks_); }
  /// The track declared with id `id` (ids start at 1).
  Track track(prof_track_id id) const {
    std::lock_guard lock(mutex_);
    return tracks_.at(id - 1);
  }
  std::vector<Slice> slices() const { return copy(slices_); }
  std::vector<Instant> instants() const { return copy(instants_); }
  std::vector<Flow> flows() const { return copy(flows_); }
  std::vector<Sample> samples() const { return copy(samples_); }
  std::vector<Counter> counters() const { return copy(counters_); }
  std::vector<LogLine> log_lines() const { return copy(logs_); }
  /// Records the plugin counted as lost under `cause` (count_dropped, ABI 1.6).
  uint64_t dropped(prof_drop_cause cause) const {
    std::lock_guard lock(mutex_);
    return cause < PROF_DROP_CAUSE_COUNT ? dropped_[cause] : 0;
  }

  /// The frames of a stack as text, leaf first.
  std::vector<std::string> frames(prof_stack_id id) const {
    std::lock_guard lock(mutex_);
    std::vector<std::string> out;
    for (prof_string_id s : stacks_.at(id - 1))
      out.push_back(strings_.at(s));
    return out;
  }
  std::vector<std::string> logs(prof_log_level level) const {
    std::vector<std::string> lines;
    for (const LogLine &line : log_lines())
      if (line.level == level) lines.push_back(line.text);
    return lines;
  }
  std::vector<std::string> errors() const { return logs(PROF_LOG_ERROR); }
  /// Whether a line of `level` contains `part`.
  bool logged(prof_log_level level, const std::string &part) const {
    for (const std::string &line : logs(level))
      if (line.find(part) != std::string::npos) return true;
    return false;
  }
  /// The counter track `name` under the track `device` (a network interface, a GPU, ...).
  std::optional<Track> counter_track(const std::string &device, const std::string &name) const {
    const std::vector<Track> all = tracks();
    for (const Track &parent : all) {
      if (parent.name != device) continue;
      for (const Track &child : all)
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

private:
  template <class T> std::vector<T> copy(const std::vector<T> &records) const {
    std::lock_guard lock(mutex_);
    return records;
  }
  static FakeSourceHost &self(void *host) { return *static_cast<FakeSourceHost *>(host); }

  // The functions behind prof_host_api; `host` is the FakeSourceHost.
  struct Calls {
    static prof_string_id intern_string(void *host, const char *text, size_t length) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      auto [it, added] = h.string_ids_.emplace(std::string(text, length), h.strings_.size());
      if (added) h.strings_.emplace_back(text, length);
      return it->second;
    }
    static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      const auto id = static_cast<prof_track_id>(h.tracks_.size() + 1);
      const bool has_flags =
          desc->struct_size >= offsetof(prof_track_desc, flags) + sizeof desc->flags;
      h.tracks_.push_back(Track{id, desc->kind, desc->parent, desc->name, desc->pid, desc->tid,
                                desc->index, desc->unit ? desc->unit : "",
                                has_flags ? desc->flags : 0u});
      return id;
    }
    static prof_stack_id intern_stack(void *host, const prof_string_id *frames, uint32_t count) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      h.stacks_.emplace_back(frames, frames + count);
      return static_cast<prof_stack_id>(h.stacks_.size());
    }
    static void emit_slice(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                           prof_string_id name, prof_string_id category, uint64_t correlation) {
      emit_slice_args(host, track, begin, duration, name, category, correlation, 0, nullptr, 0);
    }
    static void emit_slice_args(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                                prof_string_id name, prof_string_id category, uint64_t correlation,
                                uint16_t kind, const prof_arg *args, uint32_t arg_count) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      Slice slice{track,       begin, duration, h.strings_.at(name), h.strings_.at(category),
                  correlation, kind};
      for (uint32_t i = 0; i < arg_count && i < PROF_MAX_ARGS; ++i) {
        slice.args[h.strings_.at(args[i].key)] = h.text(args[i]);
        slice.arg_types[h.strings_.at(args[i].key)] = args[i].type;
      }
      h.slices_.push_back(std::move(slice));
    }
    static void emit_instant(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                             prof_string_id category) {
      emit_instant_args(host, track, ts, name, category, 0, nullptr, 0);
    }
    static void emit_instant_args(void *host, prof_track_id track, uint64_t ts, prof_string_id name,
                                  prof_string_id category, uint16_t kind, const prof_arg *args,
                                  uint32_t arg_count) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      Instant instant{track, ts, h.strings_.at(name), h.strings_.at(category), kind};
      for (uint32_t i = 0; i < arg_count && i < PROF_MAX_ARGS; ++i)
        instant.args[h.strings_.at(args[i].key)] = h.text(args[i]);
      h.instants_.push_back(std::move(instant));
    }
    static void emit_counter(void *host, prof_track_id track, uint64_t ts, double value) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      h.counters_.push_back({track, ts, value});
    }
    static void emit_sample(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      h.samples_.push_back({track, ts, stack});
    }
    static void emit_flow(void *host, prof_track_id track, uint64_t ts, uint64_t id,
                          prof_flow_phase phase) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      h.flows_.push_back({track, ts, id, phase});
    }
    static void emit_stack(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack,
                           prof_string_id) {
      emit_sample(host, track, ts, stack);
    }
    static void emit_counter_for(void *host, prof_track_id track, uint64_t ts, double value,
                                 uint64_t) {
      emit_counter(host, track, ts, value);
    }
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
    static void count_dropped(void *host, prof_drop_cause cause, uint64_t count) {
      FakeSourceHost &h = self(host);
      std::lock_guard lock(h.mutex_);
      if (cause < PROF_DROP_CAUSE_COUNT) h.dropped_[cause] += count;
    }
  };
  static constexpr prof_host_api kCurrentApi = host_api_table<Calls>();
  // ABI 1.1: the table up to emit_stack.
  static constexpr prof_host_api kOldestApi = host_api_table<Calls, 1>();

  /// An argument's value as text (the caller holds mutex_).
  std::string text(const prof_arg &arg) const {
    return prof::arg_text(
        arg, [this](prof_string_id id) -> const std::string & { return strings_.at(id); });
  }

  const prof_host_api *api_;

  mutable std::mutex mutex_;
  std::vector<std::string> strings_{""}; ///< id 0 is ""
  std::map<std::string, prof_string_id> string_ids_{{"", 0}};
  std::vector<std::vector<prof_string_id>> stacks_;
  std::vector<Track> tracks_;
  std::vector<Slice> slices_;
  std::vector<Instant> instants_;
  std::vector<Flow> flows_;
  std::vector<Sample> samples_;
  std::vector<Counter> counters_;
  std::vector<LogLine> logs_;
  uint64_t dropped_[PROF_DROP_CAUSE_COUNT] = {};
  std::map<std::string, std::string> options_;
  prof_session_info session_{};
};

} // namespace prof::testing

#endif
