// mode=tables: one CSV per event table in a folder, for pandas users.
// Rows are written as events arrive; only the ids of tracks and stacks
// already written are kept, so memory does not grow with the event count.
#ifndef PROF_PLUGINS_CSV_CSV_TABLES_HPP
#define PROF_PLUGINS_CSV_CSV_TABLES_HPP

#include "csv_file.hpp"

#include <prof/plugin.hpp>

#include <array>
#include <string>
#include <unordered_set>
#include <vector>

namespace prof::csv {


class CsvTables {
public:
  /// The files, in the order they are opened and renamed.
  static constexpr std::array<const char *, 7> kFiles{
      "tracks.csv",  "slices.csv", "instants.csv", "counters.csv",
      "samples.csv", "stacks.csv", "flows.csv"};

  explicit CsvTables(const ExportHost &host) : host_(host) {}

  /// Creates `folder` if missing and opens every table's temporary file.
  /// Refuses existing tables unless `overwrite`. Sets `error` on failure.
  bool open(const std::string &folder, bool overwrite, std::string &error);
  void add(const prof_event &event);
  /// Renames every table onto its final name.
  /// Writes the tracks' rows and closes every file under its final name.
  bool commit(std::string &error);
  uint64_t events() const { return events_; }

private:
  enum Table { Tracks, Slices, Instants, Counters, Samples, Stacks, Flows };
  void write_track_rows();
  void write_track(prof_track_id track, int depth = 0);
  void write_stack(prof_stack_id stack);

  ExportHost host_;
  std::array<CsvFile, 7> files_;
  std::unordered_set<prof_track_id> tracks_written_;
  /// Tracks used, parents first: their rows are written at commit, with the
  /// names the host has then (a process that exec'd is named after its new
  /// program).
  std::vector<prof_track_id> track_rows_;
  std::unordered_set<prof_stack_id> stacks_written_;
  uint64_t events_ = 0;
};

} // namespace prof::csv

#endif
