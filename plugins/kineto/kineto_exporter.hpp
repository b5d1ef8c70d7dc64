// KinetoExporter: writes a report as PyTorch's Kineto trace, the JSON
// torch.profiler's export_chrome_trace() writes, which HTA (Holistic Trace
// Analysis), TensorBoard's profiler plugin and `prof import` read:
//
//   {"schemaVersion":1,"deviceProperties":[],"traceEvents":[ <one per line> ],
//    "distributedInfo":{"backend":B,"rank":R,"world_size":W},
//    "baseTimeNanoseconds":T,"displayTimeUnit":"ms","traceName":N}
//
// Streamed: events are written as they arrive. Each slice is an "X" event
// with name, ph, cat, ts, dur, pid, tid and args (categories and argument
// names: kineto_args.hpp; rows: kineto_places.hpp), each instant an "i"
// with thread scope. ts and dur are µs with three decimals (exact ns); ts
// counts from baseTimeNanoseconds, the CLOCK_REALTIME of the session's
// start, written when the report has a wall clock (an imported legacy
// trace has none: then ts counts from the start alone).
//
// Kineto's own shapes come back as Kineto writes them:
//   - a training step (annotation with a "step" argument N) is the
//     user_annotation "ProfilerStep#N"; a range already named
//     ProfilerStep#N that a step covers is not written twice;
//   - flows are "s"/"f" pairs with "bp":"e", cat "ac2g" when they end on a
//     device (a launch to its kernel), else "fwdbwd"; a flow end whose other
//     end never came is left out.
// distributedInfo: the report's rank (0 when it has none: HTA needs one),
// the world size and backend an imported trace recorded, else the size of
// the default group ("BACKEND:0") and the backend its collectives name
// (no world_size when neither is known).
// Counters and CPU samples have no Kineto form and are left out (counted).
#ifndef PROF_PLUGINS_KINETO_KINETO_EXPORTER_HPP
#define PROF_PLUGINS_KINETO_KINETO_EXPORTER_HPP

#include "kineto_places.hpp"

#include <prof/output/exporter_output.hpp>
#include <prof/plugin.hpp>

#include <cstdint>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

namespace prof::kineto {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.pt.trace.json"},
    output::kOverwriteOption,
};

/// What a folder given as `path` receives: prof-<pid>.pt.trace.json.
inline constexpr const char *kExtension = ".pt.trace.json";

class KinetoExporter {
public:
  explicit KinetoExporter(ExportHost host);

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  /// A flow end waiting for the other.
  struct FlowEnd {
    KinetoPlace place;
    uint64_t ts = 0;
  };
  /// A ProfilerStep#N range kept to the end: written unless a step covers it.
  struct StepRange {
    prof_event event;
    KinetoPlace place;
    uint64_t number;
  };

  void write(const prof_event &e);
  void write_slice(const prof_event &e, const KinetoPlace &place, std::string_view name);
  void write_instant(const prof_event &e, const KinetoPlace &place);
  void add_flow_end(const prof_event &e, const KinetoPlace &place);
  void write_flow(char phase, const FlowEnd &end, uint64_t id, const char *category);
  void note_collective(const prof_event &e);
  void open_event(char phase, const KinetoPlace &place, uint64_t ts);
  void emit_record(const std::string &record);
  std::string trailer();

  ExportHost host_;
  KinetoPlaces places_;
  output::ExporterOutput file_;
  std::string out_;
  bool first_record_ = true;
  bool have_base_ = false;
  uint64_t base_ns_ = 0; ///< the session time ts counts from
  uint64_t events_ = 0, skipped_ = 0;
  std::unordered_map<uint64_t, FlowEnd> flow_begins_, flow_ends_;
  std::vector<StepRange> step_ranges_;
  std::set<std::tuple<int64_t, int64_t, uint64_t, uint64_t>> steps_; ///< pid, tid, ts, N
  int64_t default_group_size_ = 0;
  std::string backend_;
};

} // namespace prof::kineto

#endif
