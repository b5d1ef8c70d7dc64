// PerfettoExporter: writes a capture as a Perfetto protobuf trace
// (https://perfetto.dev/docs/reference/synthetic-track-event), the format
// ui.perfetto.dev and trace_processor open natively.
//
// Mapping of prof events (names and categories interned; each track's events
// on a packet sequence of their own, see packet_sequence.hpp):
//   slice (duration > 0)  TrackEvent SLICE_BEGIN at ts + SLICE_END at ts+duration
//                         (an END that does not close its track's latest open
//                         slice names the slice it closes, packet_sequence.hpp);
//                         a nonzero correlation id becomes a flow id on the BEGIN,
//                         so an API call and the device work it launched (same
//                         id) are joined by a flow arrow; work whose id no call
//                         has carries none (flow_ends.hpp)
//   slice (duration 0)    TrackEvent INSTANT (a zero-length slice in Perfetto)
//   instant               TrackEvent INSTANT
//   counter               TrackEvent COUNTER (counter_value when integral, else
//                         double_counter_value) on a CounterDescriptor track
//   flow                  TrackEvent INSTANT named by the event (or "flow") with
//                         a flow id; PROF_FLOW_END a terminating one (as a
//                         varint when shorter, see track_event_packet.hpp)
//   CPU sample            PerfSample{pid, tid, callstack_iid} with the stack
//                         interned as function_names/frames/callstacks, so the
//                         UI shows per-thread sample tracks and flame graphs.
//                         Frames sit in one synthetic mapping "[prof]" (prof
//                         has symbol names, not addresses); rel_pc is the
//                         frame's iid. The call stacks of other things
//                         (emit_stack: a category names what, e.g. osrt's
//                         blocking calls) are left out: they are no CPU samples.
// Packet order: see batch_order.hpp. Large batches are copied and ordered on
// a second thread while the batch before them is encoded (sort_ahead.hpp);
// the file is written on a third (background_writer.hpp).
// Timestamps are session nanoseconds (CLOCK_MONOTONIC), written as deltas on
// each sequence's incremental clock, which stands for the trace processor's
// default trace clock (sequence_clock.hpp). The main sequence's snapshot also
// states CLOCK_REALTIME at that clock's 0 when the session knows it, so the
// trace keeps its wall clock (prof import reads it back). Merging with a BOOTTIME trace of
// the same machine would be off by the time spent suspended.
// Sequence flags: SEQ_INCREMENTAL_STATE_CLEARED on each sequence's first
// packet, none on the others. trace_processor reads
// SEQ_NEEDS_INCREMENTAL_STATE only to skip packets of a sequence whose state
// was lost (a wrapped ring buffer, a dropped packet) and applies interned
// names, defaults and the incremental clock to every packet of a valid
// sequence, flagged or not; a file prof writes loses no packet and starts
// every sequence with its state cleared, so the flag would cost 2 bytes a
// packet for nothing.
#ifndef PROF_PLUGINS_PERFETTO_EXPORTER_HPP
#define PROF_PLUGINS_PERFETTO_EXPORTER_HPP

#include "background_writer.hpp"
#include "batch_order.hpp"
#include "flow_ends.hpp"
#include "interned_set.hpp"
#include "packet_sequence.hpp"
#include "perfetto_tracks.hpp"
#include "proto_writer.hpp"
#include "sort_ahead.hpp"
#include <prof/output/exporter_output.hpp>

#include <prof/plugin.hpp>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace prof::perfetto {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives "
     "prof-<pid>.perfetto-trace (--export-visual-profiler DIR)"},
    output::kOverwriteOption,
};

/// What a folder given as `path` receives: prof-<pid>.perfetto-trace.
inline constexpr const char *kExtension = ".perfetto-trace";

class PerfettoExporter {
public:
  explicit PerfettoExporter(ExportHost host)
      : host_(host), tracks_(host), file_(host, "perfetto", kExtension) {}

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

  /// Buffered output is written to the file in blocks of about this size.
  static constexpr size_t kFlushBytes = 1 << 20;
  /// Batches this large are ordered on a second thread while the batch before
  /// them is written; smaller ones cost less to order in place.
  static constexpr size_t kSortAheadEvents = 8192;

private:
  bool write_batch(const prof_event *events, std::span<const uint64_t> packets,
                   const BatchOrder &order);
  bool write_pending();
  /// The sequence of `track`'s events (0: the main sequence), started if new.
  PacketSequence &sequence(prof_track_id track) {
    if (track < sequences_.size() && sequences_[track].id != 0) [[likely]]
      return sequences_[track];
    return start_sequence(track);
  }
  PacketSequence &start_sequence(prof_track_id track);
  /// CLOCK_REALTIME when the session clock was 0; 0 when unknown.
  uint64_t realtime_at_zero() const;
  void write(const prof_event &e, bool slice_end);
  /// A TrackEvent for `e` of `type` carrying `flow_id` (0: none).
  void write_track_event(const prof_event &e, uint32_t type, uint64_t flow_id);
  /// Whether slices on `track` may be calls, as opposed to work on a device
  /// (a track with a PROF_TRACK_DEVICE above it), which calls start (FlowEnds).
  bool on_call_track(prof_track_id track);
  /// The instant that joins work written before its call to flow `id`.
  void write_early_work_flow(const FlowEnds::EarlyWork &work, uint64_t id);
  void write_counter(const prof_event &e);
  void write_sample(const prof_event &e);
  void intern_entry(uint32_t field, uint64_t iid, std::string_view text);
  void write_debug_annotations(std::span<const prof_arg> args);
  bool flush();
  bool fail(const std::string &message);

  ExportHost host_;
  ProtoWriter out_;
  PerfettoTracks tracks_;
  std::vector<PacketSequence> sequences_; // by track id; [0] the main sequence
  BatchOrder order_;                      // for small batches
  std::optional<SortAhead> ahead_;
  output::ExporterOutput file_;
  std::optional<BackgroundWriter> writer_; // while the file is open; after file_, so stops first
  InternedSet frames_, stacks_;            // on the main sequence
  FlowEnds flows_;
  std::vector<uint8_t> call_tracks_; // by track id: 0 not yet known, 1 calls, 2 work
  bool mapping_written_ = false;
  uint64_t events_ = 0;
  uint64_t skipped_ = 0; // counters off counter tracks, slices on them, empty stacks
};

} // namespace prof::perfetto

#endif
