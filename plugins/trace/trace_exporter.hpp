// The trace exporter: topsprof's trace mode, one line per activity in
// start-time order, printed through the host at the end of an export.
#ifndef PROF_PLUGINS_TRACE_EXPORTER_HPP
#define PROF_PLUGINS_TRACE_EXPORTER_HPP

#include "trace_record.hpp"
#include <prof/stats/track_classifier.hpp>

#include <prof/plugin.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::trace {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"scope", PROF_OPTION_ENUM, "all", 0, -1, "all,gcu",
     "all: every slice and instant with its track; gcu: device activities only "
     "(topsprof --print-gcu-trace)"},
};

class TraceExporter {
public:
  explicit TraceExporter(ExportHost host) : host_(host), tracks_(host) {}

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  void print_records();
  std::string_view track_label(prof_track_id track);
  /// The name, then the arguments: "Memcpy HtoD (bytes=4096)". Kept per
  /// name and argument set: both passes over the records ask for it.
  std::string_view name_label(const TraceRecord &record);

  ExportHost host_;
  stats::TrackClassifier tracks_;
  bool device_only_ = false; ///< scope=gcu
  std::vector<TraceRecord> records_;
  uint64_t other_events_ = 0; // counters and samples seen, not printed
  std::unordered_map<prof_track_id, std::string> track_labels_;
  std::unordered_map<uint64_t, std::string> name_labels_; // by name << 32 | argument set
};

} // namespace prof::trace

#endif
