// What a report holds off the threads' tracks: the slices of devices,
// communicators and the other tracks a source declares beside its threads.
#pragma once

#include "core/report/report_reader.hpp"

#include <prof/correlation.hpp>
#include <prof/event.h>

#include <cstddef>
#include <map>

namespace prof::testing {

/// Slices on tracks that are not threads' (gcu-train-step's kernels and copies).
inline size_t device_slices(const report::ReportReader &reader) {
  size_t slices = 0;
  for (const prof_event &e : reader.read_all_events()) {
    const report::TrackRecord *track = reader.track(e.track);
    slices += e.type == PROF_EVENT_SLICE && track && track->kind != PROF_TRACK_THREAD;
  }
  return slices;
}

/// What a report holds of a device that several processes share.
struct DeviceWork {
  std::map<int, size_t> by_launcher; ///< correlated device slices by the pid that launched them
  std::map<int, size_t> by_owner;    ///< the same by their track's owner (kept by a merge)
  size_t shared_events = 0;          ///< events on PROF_TRACK_SHARED tracks
  size_t events = 0;
};

/// The device work of `reader`: a device slice's correlation id carries the
/// pid that launched it (prof/correlation.hpp), its track the owner.
inline DeviceWork device_work(const report::ReportReader &reader) {
  DeviceWork work;
  for (const prof_event &e : reader.read_all_events()) {
    ++work.events;
    const report::TrackRecord *track = reader.track(e.track);
    if (track == nullptr) continue;
    work.shared_events += (track->flags & PROF_TRACK_SHARED) != 0;
    if (e.type != PROF_EVENT_SLICE || e.id == 0 || track->kind == PROF_TRACK_THREAD) continue;
    ++work.by_launcher[static_cast<int>(e.id >> kCorrelationBits)];
    ++work.by_owner[track->pid];
  }
  return work;
}

} // namespace prof::testing
