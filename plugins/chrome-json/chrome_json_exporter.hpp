// ChromeJsonExporter: writes a capture in the Chrome Trace Event Format
// (https://docs.google.com/document/d/1CvAClvFfyA5R-PhYUmn5OOQtYMH4h6I0nSsKchNAySU),
// which chrome://tracing, ui.perfetto.dev and speedscope open. Streamed: each
// event is written as it arrives through a bounded buffer, never kept.
//
//   {"displayTimeUnit":"ns","traceEvents":[ <one event per line> ],
//    "otherData":{"base_ns":B,"events":N,"skipped_events":K,"dropped_events":D,...}}
//
// Times: ts/dur are microseconds with three decimals (exact nanoseconds)
// relative to base_ns, the session timestamp of the first event received.
// Batches are not time-ordered across producers, so a ts may be negative.
//
// Mapping of prof events (track placement: chrome_track_map.hpp):
//   slice        "X" with ts and dur; a correlation id N adds
//                args.correlation_id (the arrows from an API call to the
//                device work it launched are the source's flow events)
//   instant      "i" with thread scope ("s":"t")
//   counter      "C" named by its counter track, args {"value": v}
//   flow         "s" (BEGIN), "t" (STEP), "f" (END) with cat "flow", "bp":"e"
//   sample       "i" named by the leaf frame, args.stack = frames root-first
//                joined by ";"; cat "sample" for CPU samples, the event's
//                category for stacks of other things (e.g. "osrt")
// Flow ids are written as hex strings ("0x1f") so 64-bit ids survive
// JavaScript numbers. Left out and counted in skipped_events: slices,
// instants and flows on counter tracks, counters off counter tracks or not
// finite, samples without a call stack.
#ifndef PROF_PLUGINS_CHROME_JSON_CHROME_JSON_EXPORTER_HPP
#define PROF_PLUGINS_CHROME_JSON_CHROME_JSON_EXPORTER_HPP

#include "chrome_track_map.hpp"
#include <prof/output/exporter_output.hpp>

#include <prof/plugin.hpp>

#include <cstdint>
#include <string>

namespace prof::chrome_json {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.json"},
    output::kOverwriteOption,
};

/// What a folder given as `path` receives: prof-<pid>.json.
inline constexpr const char *kExtension = ".json";

class ChromeJsonExporter {
public:
  explicit ChromeJsonExporter(ExportHost host);

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  void write(const prof_event &e);
  void write_slice(const prof_event &e, const ChromePlace &place);
  void write_sample(const prof_event &e, const ChromePlace &place);
  void write_flow(const char *phase, const char *category, std::string_view name, uint64_t id,
                  uint64_t ts, const ChromePlace &place);
  /// Starts an event object: separator, "ph", "pid", "tid" and "ts".
  void open_event(const char *phase, const ChromePlace &place, uint64_t ts);
  /// "name" and "cat": the display category, then the well-known `kind`.
  void append_name(std::string_view name, std::string_view category, uint16_t kind = 0);
  /// "args": the correlation id (slices) and the event's typed arguments.
  void append_args(const prof_event &e, bool with_correlation);
  void emit_record(const std::string &record);

  ExportHost host_;
  ChromeTrackMap tracks_;
  output::ExporterOutput file_;
  std::string out_;
  bool first_record_ = true;
  bool have_base_ = false;
  uint64_t base_ns_ = 0;
  uint64_t events_ = 0;
  uint64_t skipped_ = 0;
};

} // namespace prof::chrome_json

#endif
