// What kind of prof track a Perfetto track without a process, thread or
// counter descriptor is. Perfetto's descriptors say no more than a name and
// a parent, so the kind comes from how prof's sources name and nest their
// tracks, which the perfetto exporter writes unchanged (perfetto_tracks.hpp):
//   "GPU 0", "GCU 1" (top level, a device word and its index)   DEVICE, index
//   "CPU 3" (top level)                                          CPU, index
//   "eth0", "ens5", "ib0" (top level, a network interface)       NETWORK
//   "world (4 ranks)" under a process, and what is under it      COMM ("rank 2": index)
//   under a device: "Memory", "Sync"                             CUSTOM
//   under a device, itself holding tracks, "Cluster 0"           CLUSTER, index
//   any other under a device, cluster or engine ("Stream 7",
//   "SIP 3", "SIP")                                              ENGINE, index or -1
//   anything else                                                CUSTOM
// A trace from elsewhere gets CUSTOM tracks unless its names happen to read
// the same way.
#ifndef PROF_PLUGINS_PERFETTO_READ_TRACK_KINDS_HPP
#define PROF_PLUGINS_PERFETTO_READ_TRACK_KINDS_HPP

#include <prof/event.h>

#include <string_view>

namespace prof::perfetto {

struct TrackKind {
  prof_track_kind kind = PROF_TRACK_CUSTOM;
  int index = -1;
};

/// The kind of a named track called `name`, under a track of kind `parent`
/// (0: at the top level), that holds named tracks of its own or not.
TrackKind named_track_kind(std::string_view name, int parent, bool holds_tracks);

/// The number that ends `name` after a space ("Stream 7": 7), -1 when none.
int trailing_index(std::string_view name);

} // namespace prof::perfetto

#endif
