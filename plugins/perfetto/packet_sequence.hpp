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

#include <cstdint>

namespace prof::perfetto {

struct PacketSequence {
  uint32_t id = 0; ///< trusted_packet_sequence_id; 0 until its first packet is out
  SequenceClock clock;
  InternedSet names, categories;
  uint32_t kinds_written = 0; ///< bit k: the well-known category k is interned
  bool flow_name_written = false;
};

} // namespace prof::perfetto

#endif
