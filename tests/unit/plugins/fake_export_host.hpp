// A stand-in for the prof core on the exporter side: string and track
// tables, options, and the console lines an exporter prints.
#ifndef PROF_TESTS_PLUGINS_FAKE_EXPORT_HOST_HPP
#define PROF_TESTS_PLUGINS_FAKE_EXPORT_HOST_HPP

#include <prof/plugin.hpp>

#include <map>
#include <optional>
#include <string>
#include <vector>

namespace prof::testing {

class FakeExportHost {
public:
  FakeExportHost() { session_.struct_size = sizeof session_; }

  prof_string_id intern(const std::string &text) {
    for (const auto &[id, known] : strings_)
      if (known == text) return id;
    const auto id = static_cast<prof_string_id>(strings_.size() + 1);
    strings_[id] = text;
    return id;
  }

  prof_track_id add_track(prof_track_kind kind, const std::string &name, prof_track_id parent = 0,
                          int index = -1, std::optional<std::string> unit = std::nullopt) {
    const auto id = static_cast<prof_track_id>(tracks_.size() + 1);
    Track &track = tracks_[id];
    track.name = name;
    track.unit = std::move(unit);
    track.desc = prof_track_desc{sizeof(prof_track_desc),
                                 kind,
                                 parent,
                                 track.name.c_str(),
                                 0,
                                 0,
                                 index,
                                 track.unit ? track.unit->c_str() : nullptr,
                                 PROF_CLOCK_SESSION};
    return id;
  }

  prof_event slice(prof_track_id track, const std::string &name, uint64_t ts, uint64_t duration,
                   const std::string &category = "") {
    prof_event e{};
    e.type = PROF_EVENT_SLICE;
    e.track = track;
    e.name = intern(name);
    e.category = category.empty() ? 0 : intern(category);
    e.ts = ts;
    e.duration = duration;
    return e;
  }
  prof_event instant(prof_track_id track, const std::string &name, uint64_t ts) {
    prof_event e{};
    e.type = PROF_EVENT_INSTANT;
    e.track = track;
    e.name = intern(name);
    e.ts = ts;
    return e;
  }
  prof_event counter(prof_track_id track, uint64_t ts, double value) {
    prof_event e{};
    e.type = PROF_EVENT_COUNTER;
    e.track = track;
    e.ts = ts;
    e.value = value;
    return e;
  }

  void set_option(const std::string &name, const std::string &value) { options_[name] = value; }
  void set_dropped(uint64_t dropped) { dropped_ = dropped; }
  const std::vector<std::string> &printed() const { return printed_; }
  const std::vector<std::string> &errors() const { return errors_; }

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
  static const prof_string_id *stack(void *, prof_stack_id, uint32_t *count) {
    *count = 0;
    return nullptr;
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }
  static void print(void *host, const char *line) { self(host).printed_.emplace_back(line); }
  static void log(void *host, prof_log_level level, const char *message) {
    if (level == PROF_LOG_ERROR) self(host).errors_.emplace_back(message);
  }
  static const char *get_option(void *host, const char *name) {
    auto found = self(host).options_.find(name);
    return found == self(host).options_.end() ? nullptr : found->second.c_str();
  }
  static uint64_t dropped_events(void *host) { return self(host).dropped_; }

  static constexpr prof_export_api kApi{sizeof(prof_export_api), &string, &track, &stack,
                                        &session_info,           &print,  &log,   &get_option,
                                        &dropped_events};

  std::map<prof_string_id, std::string> strings_;
  std::map<prof_track_id, Track> tracks_; // map nodes keep desc.name pointers valid
  std::map<std::string, std::string> options_;
  std::vector<std::string> printed_, errors_;
  uint64_t dropped_ = 0;
  prof_session_info session_{};
};

} // namespace prof::testing

#endif
