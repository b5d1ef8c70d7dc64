// PerfettoTracks: maps prof tracks to Perfetto track uuids and writes each
// track's TrackDescriptor the first time an event uses it, ancestors first.
//
// prof kind           Perfetto descriptor
// PROCESS (pid > 0)   ProcessDescriptor{pid, process_name, cmdline}, no parent
// THREAD (tid > 0)    ThreadDescriptor{pid, tid, thread_name}, no parent (the
//                     trace processor groups threads under their process by pid)
//                     Pids and tids are unique per process track: a merged
//                     report's processes of other hosts that reuse a pid (or
//                     tid) get a stand-in id from 2^30 up, so the UI keeps
//                     them apart.
// COUNTER             CounterDescriptor{unit or unit_name}, parent_uuid
// anything else       a named track with parent_uuid: device > cluster >
//                     engine > index nest as prof declared them
#ifndef PROF_PLUGINS_PERFETTO_PERFETTO_TRACKS_HPP
#define PROF_PLUGINS_PERFETTO_PERFETTO_TRACKS_HPP

#include "proto_writer.hpp"

#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::perfetto {

/// What the exporter needs to know about a track after its descriptor is out.
struct TrackInfo {
  bool written = false;  ///< descriptor emitted
  bool visiting = false; ///< on the ancestor chain being written (cycle guard)
  bool counter = false;  ///< a counter track: only TYPE_COUNTER events
  int32_t pid = 0;       ///< process of a process/thread track (inherited), as exported
  int32_t tid = 0;       ///< thread of a thread track
  std::string name;      ///< a process or thread track's name as written
};

class PerfettoTracks {
public:
  /// A track's uuid is its prof id: nonzero (0 is Perfetto's implicit global
  /// track), unique in the file, and a 1-3 byte varint on every event.
  static constexpr uint64_t uuid(prof_track_id id) { return id; }

  explicit PerfettoTracks(ExportHost host) : host_(host) {}

  /// The track's uuid, writing its descriptor (and its ancestors') into `out`
  /// first if needed. Track 0 is the global track, uuid 0.
  uint64_t use(prof_track_id id, ProtoWriter &out) {
    if (id == 0) return 0;
    if (id < tracks_.size() && tracks_[id].written) return uuid(id);
    write_descriptor(id, out, 0);
    return uuid(id);
  }
  /// Info of a track already passed to use().
  const TrackInfo &info(prof_track_id id) const { return tracks_[id]; }

  /// Number of descriptors written.
  size_t written() const { return written_; }
  /// Writes again the descriptors of process and thread tracks the host
  /// names differently now (a process that exec'd after its first events);
  /// the trace processor takes a process's or thread's latest name.
  void refresh_names(ProtoWriter &out);

private:
  void write_descriptor(prof_track_id id, ProtoWriter &out, int depth);
  /// A process or thread track's descriptor packet, named `name`.
  void write_named(prof_track_id id, const prof_track_desc &desc, const TrackInfo &info,
                   std::string_view name, ProtoWriter &out);
  void write_process(const prof_track_desc &desc, std::string_view name, int32_t pid,
                     ProtoWriter &out);
  void write_counter(const prof_track_desc &desc, ProtoWriter &out);
  std::vector<std::string> target_cmdline(int32_t pid) const;
  /// `raw` as written for the process of track `process` (0: none known):
  /// raw itself unless another process already took it.
  int32_t exported_id(prof_track_id process, int32_t raw);

  ExportHost host_;
  std::unordered_map<int32_t, prof_track_id> id_owner_; ///< raw pid/tid → its process track
  std::map<std::pair<prof_track_id, int32_t>, int32_t> stand_ins_;
  int32_t next_stand_in_ = 1 << 30; // above any Linux pid (at most 2^22)
  std::vector<TrackInfo> tracks_;
  size_t written_ = 0;
};

} // namespace prof::perfetto

#endif
