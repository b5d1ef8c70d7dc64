// A PyTorch profiler trace as `prof import` holds it between reading and
// writing: its events already in prof's event model (kinds, names, typed
// arguments with interned keys), each on a lane (a thread of a process, or
// a stream or the memory of a device) that becomes a track when the report
// is written, with the trace's own times in nanoseconds.
#pragma once

#include <prof/event.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::kineto {

/// The trace's strings by id, as the passes read them; the host interns
/// them when the trace is emitted. Id 0 is "".
class TraceStrings {
public:
  TraceStrings() : texts_{std::string()} {}
  TraceStrings(const TraceStrings &) = delete;
  TraceStrings &operator=(const TraceStrings &) = delete;

  prof_string_id intern(std::string_view text) {
    if (const auto it = ids_.find(text); it != ids_.end()) return it->second;
    const auto id = static_cast<prof_string_id>(texts_.size());
    ids_.emplace(texts_.emplace_back(text), id);
    return id;
  }
  /// Text of `id`; "" for an id not handed out.
  const std::string &text(prof_string_id id) const {
    return id < texts_.size() ? texts_[id] : texts_[0];
  }
  size_t size() const { return texts_.size(); }

private:
  std::deque<std::string> texts_; // element addresses never move: ids_ views them
  std::unordered_map<std::string_view, prof_string_id> ids_;
};

/// Where an event happened: a thread of a process, or a row of a device.
struct Lane {
  bool device = false; ///< a device's row: `pid` is the device, `tid` the stream
  int64_t pid = 0;     ///< the process (negative: named by text, legacy's "CPU functions")
  int64_t tid = 0;     ///< the thread, the stream, or kDeviceMemoryRow
  auto operator<=>(const Lane &) const = default;
};

/// A device's row for its memory events (under the device, beside its streams).
inline constexpr int64_t kDeviceMemoryRow = -2;

/// What the converting passes look for in an event besides its kind.
enum class EventRole : uint8_t {
  Plain,
  Operator,          ///< a framework operator (self time and pass are computed)
  BackendCollective, ///< "gloo:all_reduce": the backend carrying out a collective
  C10dOperator,      ///< "c10d::allreduce_": the collective as Python or DDP asked for it
  ParamComms,        ///< "record_param_comms": a collective's facts (PyTorch 2.x)
};

/// A collective's facts as "record_param_comms" carries them.
struct CollectiveFacts {
  std::string group_name;        ///< "Process Group Name": "0", "1"
  std::string group_description; ///< "Process Group Description": "default_pg"
  std::string group_ranks;       ///< "Process Group Ranks", as reports show ranks: "0-3"
  std::string collective;        ///< "Collective name": "allreduce"
  std::string dtype;             ///< "dtype", as torch names the element type: "float"
  int64_t group_size = -1, in_elements = -1, out_elements = -1, sequence = -1;
};

/// One event, still on its lane and the trace's clock.
struct ImportedEvent {
  uint8_t type = PROF_EVENT_SLICE; ///< prof_event_type
  uint8_t phase = 0;               ///< a flow's prof_flow_phase
  uint16_t kind = PROF_CATEGORY_OTHER;
  EventRole role = EventRole::Plain;
  prof_string_id name = 0, category = 0;
  int64_t ts = 0;       ///< ns on the trace's clock
  int64_t duration = 0; ///< ns
  uint64_t id = 0;      ///< a slice's correlation id; a flow's id
  Lane lane;
  std::vector<prof_arg> args;
  /// A ParamComms's facts, or a backend collective's own (shared, most
  /// events have none).
  std::shared_ptr<const CollectiveFacts> facts;
};

/// The job a trace came from.
struct DistributedInfo {
  std::optional<int64_t> rank, world_size;
  std::string backend; ///< "nccl", "gloo"; "" unknown
};

/// Which of PyTorch's two trace shapes a file had.
enum class TraceForm { Kineto, Legacy };

/// A whole trace, read.
struct ImportedTrace {
  TraceForm form = TraceForm::Kineto;
  TraceStrings strings;
  std::vector<ImportedEvent> events;
  DistributedInfo distributed;
  /// Added to every ts to give CLOCK_REALTIME ns, when the trace's clock is
  /// the wall clock (Kineto: baseTimeNanoseconds, or absolute timestamps).
  std::optional<int64_t> realtime_base;
  std::optional<int64_t> base_time_ns;          ///< "baseTimeNanoseconds", when the file has it
  std::map<int64_t, std::string> process_names; ///< from "process_name" metadata
  std::map<std::pair<int64_t, int64_t>, std::string> thread_names; ///< (pid, tid) -> name
  /// The text of a "pid" or "tid" given as text, by the negative id it got.
  std::map<int64_t, std::string> lane_texts;
  std::optional<int64_t> labelled_rank; ///< a rank a "process_labels" record names
  std::vector<int32_t> pids;            ///< the processes' pids (Kineto), in first-seen order
  uint64_t skipped = 0;                 ///< events of a phase prof does not import
};

} // namespace prof::kineto
