// ReadTrace: what the importer took from a Perfetto trace, before it becomes
// a report: the tracks as their descriptors describe them, the events in
// file order with their times on the trace clock and their names resolved
// from each sequence's interned data, CPU samples with their call stacks,
// and what was left out (for the warnings). trace_reader.hpp fills it,
// trace_emitter.hpp emits it.
#ifndef PROF_PLUGINS_PERFETTO_READ_READ_TRACE_HPP
#define PROF_PLUGINS_PERFETTO_READ_READ_TRACE_HPP

#include <prof/event.h>

#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {

/// The trace's strings, each once; id 0 is "".
class StringPool {
public:
  StringPool() {
    texts_.emplace_back();
    index_.emplace(texts_.back(), 0);
  }
  uint32_t intern(std::string_view text) {
    if (const auto it = index_.find(text); it != index_.end()) return it->second;
    const auto id = static_cast<uint32_t>(texts_.size());
    texts_.emplace_back(text);
    index_.emplace(texts_.back(), id);
    return id;
  }
  const std::string &text(uint32_t id) const { return id < texts_.size() ? texts_[id] : texts_[0]; }
  size_t size() const { return texts_.size(); }

private:
  std::deque<std::string> texts_; // stable addresses for the views in index_
  std::unordered_map<std::string_view, uint32_t> index_;
};

/// What a TrackDescriptor makes its track.
enum class TrackType : uint8_t { Plain, Process, Thread, Counter };

/// One track as its descriptors (the latest of each field) describe it.
struct TrackDescription {
  uint64_t uuid = 0;
  uint64_t parent_uuid = 0; ///< 0: none
  TrackType type = TrackType::Plain;
  std::string name; ///< TrackDescriptor.name (or static_name), "" when none
  int32_t pid = 0, tid = 0;
  std::string process_name, thread_name;
  std::vector<std::string> cmdline;
  std::string unit;            ///< a counter's: "ns", "count", "bytes" or its unit_name
  int64_t unit_multiplier = 1; ///< a counter's values are this many units
  bool incremental = false;    ///< a counter's values are deltas on their sequence
};

enum class EventType : uint8_t { SliceBegin = 1, SliceEnd = 2, Instant = 3, Counter = 4 };

/// One flow id of an event.
struct FlowRef {
  uint64_t id = 0;
  bool terminating = false;
};

/// One TrackEvent (or one extra counter value of one).
struct ReadEvent {
  int64_t ts = 0;          ///< nanoseconds on the trace clock
  uint64_t track = 0;      ///< its track's uuid (0: the global track)
  uint32_t sequence = 0;   ///< trusted_packet_sequence_id
  uint32_t generation = 0; ///< how often its sequence's incremental state was cleared before
  EventType type = EventType::Instant;
  uint16_t kind = 0; ///< prof_category, from prof's own second category
  bool has_category = false;
  uint32_t name = 0, category = 0;          ///< StringPool ids; categories joined with ","
  uint32_t args_begin = 0, arg_count = 0;   ///< into ReadTrace::args
  uint32_t flows_begin = 0, flow_count = 0; ///< into ReadTrace::flows
  uint64_t correlation = 0;                 ///< TrackEvent.correlation_id
  double value = 0;                         ///< a counter's
};

/// A CPU sample (PerfSample) with its call stack.
struct ReadSample {
  int64_t ts = 0;
  int32_t pid = 0, tid = 0;
  uint32_t stack = 0; ///< into ReadTrace::stacks, 0: none
};

/// Counts of what the reader left out or could not resolve.
struct LeftOut {
  uint64_t legacy_events = 0;      ///< TrackEvents without a type (Chrome's legacy form)
  uint64_t delta_us_events = 0;    ///< timed by timestamp_delta_us alone
  uint64_t unconverted = 0;        ///< on a clock no snapshot relates to the trace clock
  uint64_t lost_state_packets = 0; ///< needing incremental state their sequence had lost
  uint64_t compressed_packets = 0; ///< compressed_packets bundles
  uint64_t missing_iids = 0;       ///< references to data never interned on their sequence
  uint64_t assumed_clocks = 0;     ///< events on a clock taken as the trace clock
};

/// Where the file ended inside a packet.
struct CutPacket {
  uint64_t offset = 0;   ///< of the packet's length
  uint64_t expected = 0; ///< its length
  uint64_t found = 0;    ///< bytes there were
  uint64_t packets = 0;  ///< whole packets before it
};

struct ReadTrace {
  StringPool strings;
  std::vector<TrackDescription> tracks;             ///< in the order of their first descriptor
  std::unordered_map<uint64_t, size_t> track_index; ///< uuid -> index in tracks
  std::vector<ReadEvent> events;                    ///< in file order
  std::vector<prof_arg> args;                       ///< keys and string values are StringPool ids
  std::vector<FlowRef> flows;
  std::vector<ReadSample> samples;
  /// Call stacks as StringPool ids of their frames, leaf first; [0] empty.
  std::vector<std::vector<uint32_t>> stacks{1};
  uint32_t trace_clock = 6; ///< BUILTIN_CLOCK_BOOTTIME unless the trace names another
  /// CLOCK_REALTIME and the trace clock at one moment, from the first clock
  /// snapshot that has both.
  std::optional<std::pair<int64_t, int64_t>> realtime;
  LeftOut left_out;
  std::optional<CutPacket> cut;
  uint64_t packets = 0;

  const TrackDescription *track(uint64_t uuid) const {
    const auto it = track_index.find(uuid);
    return it == track_index.end() ? nullptr : &tracks[it->second];
  }
};

} // namespace prof::perfetto

#endif
