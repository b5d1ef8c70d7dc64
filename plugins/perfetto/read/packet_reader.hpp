// PacketReader: the state read_trace() keeps while it walks a trace's
// packets: the packet sequences, the clocks and the call stacks seen. Its
// packet-level parts are in trace_reader.cpp, what reads events (TrackEvent
// with its annotations and flows, PerfSample) in event_reader.cpp.
#ifndef PROF_PLUGINS_PERFETTO_READ_PACKET_READER_HPP
#define PROF_PLUGINS_PERFETTO_READ_PACKET_READER_HPP

#include "read/clock_converter.hpp"
#include "read/proto_reader.hpp"
#include "read/read_trace.hpp"
#include "read/sequence_state.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {

class PacketReader {
public:
  explicit PacketReader(ReadTrace &trace) : trace_(trace) {}

  /// Reads one TracePacket, whose bytes start at file offset `offset`.
  void packet(std::string_view bytes, uint64_t offset);

private:
  /// What a packet says of itself before its payload is read.
  struct Packet {
    std::optional<uint64_t> timestamp;
    std::optional<uint32_t> clock_id;
    uint32_t sequence = 0;
    uint32_t flags = 0;
    bool cleared = false, dropped = false;
  };

  void defaults(ProtoReader reader, SequenceState &seq);
  void interned(ProtoReader reader, SequenceState &seq);
  void interned_strings(ProtoReader reader, SequenceState::Strings &table, const char *what);
  void snapshot(ProtoReader reader, uint32_t sequence);
  void descriptor(ProtoReader reader);
  /// The packet's time on the trace clock; nullopt when it cannot be had.
  std::optional<int64_t> packet_time(const Packet &packet, const SequenceState &seq);

  // event_reader.cpp
  void track_event(ProtoReader reader, const Packet &packet, SequenceState &seq,
                   std::optional<int64_t> ts);
  void annotation(ProtoReader reader, SequenceState &seq);
  void perf_sample(ProtoReader reader, SequenceState &seq, std::optional<int64_t> ts);
  uint32_t stack_of(uint64_t callstack, SequenceState &seq);
  uint32_t frame_name(uint64_t frame, const SequenceState &seq);
  /// The StringPool id that `iid` has in `table`, 0 (and counted) when none.
  uint32_t lookup(const SequenceState::Strings &table, uint64_t iid);

  ReadTrace &trace_;
  ClockConverter clocks_;
  std::unordered_map<uint32_t, SequenceState> sequences_;
  std::map<std::vector<uint32_t>, uint32_t> stack_index_;
};

} // namespace prof::perfetto

#endif
