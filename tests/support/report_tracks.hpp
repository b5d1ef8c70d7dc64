// What a report holds off the threads' tracks: the slices of devices,
// communicators and the other tracks a source declares beside its threads.
#pragma once

#include "core/report/report_reader.hpp"

#include <prof/event.h>

#include <cstddef>

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

} // namespace prof::testing
