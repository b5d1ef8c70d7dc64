#include "gcu_report.hpp"

#include <gtest/gtest.h>

namespace prof::e2e {
namespace {

std::string track_path(const report::ReportReader &reader, uint32_t id, int *device) {
  std::string path;
  for (int depth = 0; id != 0 && depth < 16; ++depth) {
    const report::TrackRecord *track = reader.track(id);
    if (track == nullptr) break;
    path = path.empty() ? track->name : track->name + "/" + path;
    if (track->kind == PROF_TRACK_DEVICE && device) *device = track->index;
    id = track->parent;
  }
  return path;
}

/// The `bytes` argument of argument set `id`, 0 when it has none.
uint64_t bytes_of(const report::ReportReader &reader, uint64_t id) {
  const auto set = reader.args().find(static_cast<uint32_t>(id));
  if (!set) return 0;
  for (const prof_arg &a : *set)
    if (reader.string(a.key) == "bytes" && a.type == PROF_ARG_UINT) return a.value.u;
  return 0;
}

} // namespace

GcuReport read_gcu_report(const std::string &path) {
  GcuReport out;
  report::ReportReader reader;
  EXPECT_TRUE(reader.open(path)) << path;
  for (const prof_event &e : reader.read_all_events()) {
    const report::TrackRecord *track = reader.track(e.track);
    if (track == nullptr) continue;
    int device = -1;
    const std::string where = track_path(reader, e.track, &device);
    switch (e.type) {
    case PROF_EVENT_SLICE:
      if (device >= 0)
        out.device.push_back({std::string(reader.string(e.name)),
                              std::string(reader.string(e.category)), device, where, e.ts,
                              e.duration, e.id, e.kind, bytes_of(reader, e.args)});
      else
        out.host.push_back({std::string(reader.string(e.name)),
                            std::string(reader.string(e.category)), track->tid, e.ts, e.duration,
                            e.id, e.kind});
      break;
    case PROF_EVENT_INSTANT:
      out.device_instants += device >= 0;
      break;
    case PROF_EVENT_COUNTER:
      out.counters.push_back({track->name, where, e.ts, e.value, e.id});
      break;
    case PROF_EVENT_FLOW:
      (e.flags == PROF_FLOW_BEGIN ? out.flow_begins : out.flow_ends)[e.id]++;
      break;
    default:
      break;
    }
  }
  return out;
}

} // namespace prof::e2e
