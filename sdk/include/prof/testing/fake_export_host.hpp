// SDK test support: a stand-in for the prof host on the exporter side, which
// an exporter's unit tests drive without prof: strings, tracks with pid/tid, call stacks, session
// facts, options, the dropped count, printed lines and log lines by level.
#ifndef PROF_TESTING_FAKE_EXPORT_HOST_HPP
#define PROF_TESTING_FAKE_EXPORT_HOST_HPP

#include <prof/testing/test_events.hpp>

#include <prof/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prof::testing {

class FakeExportHost {
public:
  FakeExportHost() {
    session_.struct_size = sizeof session_;
    session_.session_name = "test";
    session_.command = command_.c_str();
    session_.hostname = "host";
  }

  prof_string_id intern(const std::string &text) {
    if (text.empty()) return 0;
    for (const auto &[id, known] : strings_)
      if (known == text) return id;
    const auto id = static_cast<prof_string_id>(strings_.size() + 1);
    strings_[id] = text;
    return id;
  }

  prof_track_id add_track(prof_track_kind kind, const std::string &name, prof_track_id parent = 0,
                          int pid = 0, int tid = 0, int index = -1,
                          std::optional<std::string> unit = std::nullopt) {
    const auto id = static_cast<prof_track_id>(tracks_.size() + 1);
    Track &track = tracks_[id];
    track.name = name;
    track.unit = std::move(unit);
    track.desc = prof_track_desc{sizeof(prof_track_desc),
                                 kind,
                                 parent,
                                 track.name.c_str(),
                                 pid,
                                 tid,
                                 index,
                                 track.unit ? track.unit->c_str() : nullptr,
                                 PROF_CLOCK_SESSION,
                                 0};
    return id;
  }
  /// Sets track `id`'s PROF_TRACK_* flags (ABI 1.10).
  void set_track_flags(prof_track_id id, uint32_t flags) { tracks_.at(id).desc.flags = flags; }

  /// Gives track `id` a new name, as a host does for a process that exec'd.
  void rename_track(prof_track_id id, const std::string &name) {
    Track &track = tracks_.at(id);
    track.name = name;
    track.desc.name = track.name.c_str();
  }

  prof_stack_id add_stack(const std::vector<std::string> &leaf_first) {
    std::vector<prof_string_id> frames;
    for (const auto &name : leaf_first)
      frames.push_back(intern(name));
    stacks_.push_back(std::move(frames));
    return static_cast<prof_stack_id>(stacks_.size());
  }

  prof_event slice(prof_track_id track, const std::string &name, uint64_t ts, uint64_t duration,
                   const std::string &category = "", uint64_t correlation = 0) {
    return testing::slice(track, ts, duration, intern(name), intern(category), correlation);
  }
  prof_event instant(prof_track_id track, const std::string &name, uint64_t ts) {
    return testing::instant(track, ts, intern(name));
  }
  prof_event counter(prof_track_id track, uint64_t ts, double value) {
    return testing::counter(track, ts, value);
  }
  prof_event flow(prof_track_id track, uint64_t ts, uint64_t id, prof_flow_phase phase) {
    return testing::flow(track, ts, id, static_cast<uint8_t>(phase));
  }
  prof_event sample(prof_track_id track, uint64_t ts, prof_stack_id stack) {
    return testing::sample(track, ts, stack);
  }

  /// An argument set that events name in `args`.
  uint64_t add_args(std::vector<prof_arg> args) {
    arg_sets_.push_back(std::move(args));
    return arg_sets_.size();
  }
  prof_arg uint_arg(const std::string &key, uint64_t value) {
    return prof::arg_uint(intern(key), value);
  }
  prof_arg int_arg(const std::string &key, int64_t value) {
    return prof::arg_int(intern(key), value);
  }
  prof_arg double_arg(const std::string &key, double value) {
    return prof::arg_double(intern(key), value);
  }
  prof_arg string_arg(const std::string &key, const std::string &value) {
    return prof::arg_string(intern(key), intern(value));
  }
  /// `e` with argument set `args` and well-known category `kind`.
  static prof_event with_args(prof_event e, uint64_t args,
                              prof_category kind = PROF_CATEGORY_OTHER) {
    e.args = args;
    e.kind = static_cast<uint16_t>(kind);
    return e;
  }

  void set_option(const std::string &name, const std::string &value) { options_[name] = value; }
  void set_target(int pid, const std::string &command) {
    command_ = command;
    session_.command = command_.c_str();
    session_.target_pid = pid;
  }
  /// The session exporters see, for a test to set more of it (rank, clock
  /// anchor, plugins); strings it points to must outlive the export.
  prof_session_info &session() { return session_; }
  /// Losses the capture had under `cause` (ring full by default).
  void set_dropped(uint64_t dropped, prof_drop_cause cause = PROF_DROP_RING_FULL) {
    dropped_[cause] = dropped;
  }
  const std::vector<std::string> &printed() const { return printed_; }
  const std::vector<std::string> &errors() const { return logs_[PROF_LOG_ERROR]; }
  const std::vector<std::string> &warnings() const { return logs_[PROF_LOG_WARN]; }

  const prof_export_api *api() const { return &kApi; }
  ExportHost host() { return ExportHost(&kApi, this); }

private:
  struct Track {
    prof_track_desc desc;
    std::string name;
    std::optional<std::string> unit;
  };
  static FakeExportHost &self(void *host) { return *static_cast<FakeExportHost *>(host); }

  static const char *string(void *host, prof_string_id id) {
    auto found = self(host).strings_.find(id);
    return found == self(host).strings_.end() ? "" : found->second.c_str();
  }
  static const prof_track_desc *track(void *host, prof_track_id id) {
    auto found = self(host).tracks_.find(id);
    return found == self(host).tracks_.end() ? nullptr : &found->second.desc;
  }
  static const prof_string_id *stack(void *host, prof_stack_id id, uint32_t *count) {
    auto &stacks = self(host).stacks_;
    if (id == 0 || id > stacks.size()) {
      *count = 0;
      return nullptr;
    }
    *count = static_cast<uint32_t>(stacks[id - 1].size());
    return stacks[id - 1].data();
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }
  static void print(void *host, const char *line) { self(host).printed_.emplace_back(line); }
  static void log(void *host, prof_log_level level, const char *message) {
    self(host).logs_[level].emplace_back(message);
  }
  static const char *get_option(void *host, const char *name) {
    auto found = self(host).options_.find(name);
    return found == self(host).options_.end() ? nullptr : found->second.c_str();
  }
  static uint64_t dropped_events(void *host) { return self(host).dropped_[PROF_DROP_RING_FULL]; }
  static uint64_t dropped_by_cause(void *host, prof_drop_cause cause) {
    return cause < PROF_DROP_CAUSE_COUNT ? self(host).dropped_[cause] : 0;
  }
  static prof_track_id process_track(void *host, int32_t pid, prof_track_id) {
    for (const auto &[id, track] : self(host).tracks_)
      if (track.desc.kind == PROF_TRACK_PROCESS && track.desc.pid == pid) return id;
    return 0;
  }
  static const prof_arg *args(void *host, prof_args_id id, uint32_t *count) {
    auto &sets = self(host).arg_sets_;
    if (id == 0 || id > sets.size()) {
      *count = 0;
      return nullptr;
    }
    *count = static_cast<uint32_t>(sets[id - 1].size());
    return sets[id - 1].data();
  }

  static constexpr prof_export_api kApi{sizeof(prof_export_api),
                                        &string,
                                        &track,
                                        &stack,
                                        &session_info,
                                        &print,
                                        &log,
                                        &get_option,
                                        &dropped_events,
                                        &args,
                                        &dropped_by_cause,
                                        &process_track};

  std::map<prof_string_id, std::string> strings_;
  std::map<prof_track_id, Track> tracks_; // map nodes keep desc.name pointers valid
  std::vector<std::vector<prof_string_id>> stacks_;
  std::vector<std::vector<prof_arg>> arg_sets_;
  std::map<std::string, std::string> options_;
  std::vector<std::string> printed_;
  std::vector<std::string> logs_[4];
  uint64_t dropped_[PROF_DROP_CAUSE_COUNT] = {};
  std::string command_;
  prof_session_info session_{};
};

} // namespace prof::testing

#endif
