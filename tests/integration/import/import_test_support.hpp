// What the import tests read back from a report: its events with their
// tracks' and processes' names and their arguments as text.
#pragma once

#include "core/report/report_model.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::import_test {

struct Event {
  uint8_t type = 0, phase = 0;
  uint16_t kind = 0;
  std::string name, category;
  std::string track;  ///< its track's name
  std::string parent; ///< the name of the track above it (its process or device)
  uint64_t ts = 0, duration = 0, id = 0;
  std::map<std::string, std::string> args; ///< values as text
  std::string arg(const std::string &key) const {
    const auto it = args.find(key);
    return it == args.end() ? "<none>" : it->second;
  }
};

struct ReadBack {
  report::Header header;
  std::vector<report::TrackRecord> tracks;
  std::vector<Event> events;
  bool complete = false;
  /// The slices named `name`, in time order.
  std::vector<const Event *> slices(const std::string &name) const;
  /// The one slice named `name` (a test failure when not exactly one).
  const Event &slice(const std::string &name) const;
  std::vector<const Event *> of_type(uint8_t type) const;
};

/// Reads the report at `path`; a test failure when it does not open.
ReadBack read_back(const std::string &path);

/// The whole file.
std::string file_text(const std::string &path);
void write_file(const std::string &path, const std::string &text);

} // namespace prof::import_test
