// SequenceState: what Perfetto scopes to one packet sequence
// (trusted_packet_sequence_id) as the importer reads it: the interned data
// (names, categories, annotation names and string values, call stacks),
// the defaults of its packets and events, and whether that incremental state
// is intact. SEQ_INCREMENTAL_STATE_CLEARED (or the older
// incremental_state_cleared) empties it; previous_packet_dropped marks it
// lost until the next clear, and packets that need it
// (SEQ_NEEDS_INCREMENTAL_STATE) are then left out, as the trace processor
// leaves them out.
#ifndef PROF_PLUGINS_PERFETTO_READ_SEQUENCE_STATE_HPP
#define PROF_PLUGINS_PERFETTO_READ_SEQUENCE_STATE_HPP

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {

/// An interned Frame of a call stack.
struct InternedFrame {
  uint64_t function_name = 0; ///< iid in function_names
  uint64_t mapping = 0;       ///< iid in mappings
  uint64_t rel_pc = 0;
};

struct SequenceState {
  bool valid = false;      ///< a clear was seen and nothing was dropped since
  uint32_t generation = 0; ///< clears so far

  // TracePacketDefaults (and its TrackEventDefaults).
  std::optional<uint32_t> clock_id;
  std::optional<uint64_t> track_uuid;
  std::vector<uint64_t> extra_counter_tracks, extra_double_counter_tracks;

  // InternedData: iid -> StringPool id.
  using Strings = std::unordered_map<uint64_t, uint32_t>;
  Strings event_names, event_categories, annotation_names, annotation_values, function_names,
      mapping_paths;
  std::unordered_map<uint64_t, InternedFrame> frames;
  std::unordered_map<uint64_t, std::vector<uint64_t>> mappings;   ///< path_string_ids
  std::unordered_map<uint64_t, std::vector<uint64_t>> callstacks; ///< frame iids, root first
  std::unordered_map<uint64_t, uint32_t> stack_ids; ///< callstack iid -> ReadTrace::stacks

  void clear() {
    const uint32_t next = generation + 1;
    *this = SequenceState{};
    generation = next;
    valid = true;
  }
};

} // namespace prof::perfetto

#endif
