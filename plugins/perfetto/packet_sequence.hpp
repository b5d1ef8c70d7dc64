// PacketSequence: what Perfetto scopes to one packet sequence
// (trusted_packet_sequence_id) as the exporter writes it: the names and
// categories interned on it, and its incremental clock.
//
// The exporter writes the events of each prof track on a sequence of their
// own, whose first packet makes that track the default one
// (TrackEventDefaults.track_uuid), the way Perfetto's SDK gives each thread a
// sequence: an event then names no track, and each timestamp is a delta from
// the previous event of the same track. A track's events come from one
// producer (a thread, a device queue) in time order, so the clock restarts
// only where a track's own events go back. The main sequence
// (kMainSequenceId) holds track descriptors, events on no track and CPU
// samples with their interned call stacks.
//
// Interning is per sequence: a name used on several tracks is written once
// on each of their sequences.
#ifndef PROF_PLUGINS_PERFETTO_PACKET_SEQUENCE_HPP
#define PROF_PLUGINS_PERFETTO_PACKET_SEQUENCE_HPP

#include "interned_set.hpp"
#include "sequence_clock.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace prof::perfetto {

struct PacketSequence {
  uint32_t id = 0; ///< trusted_packet_sequence_id; 0 until its first packet is out
  SequenceClock clock;
  InternedSet names, categories;
  uint32_t kinds_written = 0; ///< bit k: the well-known category k is interned
  bool flow_name_written = false;
  /// Name iids of the slices begun and not yet ended, in file order.
  std::vector<uint64_t> open;

  /// The name iid that the END of the latest open slice named `name` must
  /// carry: 0 when that slice is the latest open one (an END without a name
  /// closes it), else `name`, which readers (the trace processor, prof's
  /// importer) match against the open slices. Slices that overlap without
  /// nesting on one track (a thread's scheduling states beside its blocking
  /// calls) end as they should.
  uint64_t close(uint64_t name) {
    for (size_t i = open.size(); i-- > 0;) {
      if (open[i] != name) continue;
      const bool latest = i + 1 == open.size();
      open.erase(open.begin() + static_cast<std::ptrdiff_t>(i));
      return latest ? 0 : name;
    }
    return 0;
  }
};

} // namespace prof::perfetto

#endif
