#include "core/report_replay.hpp"

namespace prof::core {

void load_catalog(const report::ReportReader &reader, Catalog &catalog) {
  const auto &strings = reader.strings();
  for (size_t id = 1; id < strings.size(); ++id)
    catalog.strings.restore(static_cast<prof_string_id>(id), strings[id]);
  for (const auto &[id, track] : reader.tracks()) {
    prof_track_desc desc{sizeof(prof_track_desc), track.kind, track.parent, track.name.c_str(),
                         track.pid, track.tid, track.index,
                         track.unit.empty() ? nullptr : track.unit.c_str(), track.clock};
    catalog.tracks.restore(id, desc);
  }
  for (const auto &[id, stack] : reader.stacks()) {
    if (id > 0) catalog.stacks.restore(id, stack.frames);
  }
}

CaptureEnd capture_end_of(const report::ReportReader &reader) {
  CaptureEnd end;
  end.events = reader.event_count();
  end.dropped = reader.total_dropped();
  for (const auto &[ring, drop] : reader.drops()) end.drops.push_back({ring, drop.tid, drop.dropped});
  if (const auto &footer = reader.footer()) {
    end.end_ns = footer->end_ns;
    end.exit_code = footer->exit_status;
    end.exit_signal = footer->killed_by_signal ? footer->signal : 0;
  }
  return end;
}

void replay(const report::ReportReader &reader, const Catalog &catalog,
            const std::vector<EventSink *> &sinks,
            const std::function<void(uint64_t, uint64_t)> &progress) {
  CatalogMark now{catalog.strings.size(), catalog.tracks.size(), catalog.stacks.size()};
  for (EventSink *sink : sinks) sink->catalog_grew(catalog, CatalogMark{}, now);
  const uint64_t total = reader.event_count();
  uint64_t done = 0;
  reader.for_each_event_batch([&](const prof_event *events, size_t count) {
    for (EventSink *sink : sinks) sink->consume(events, count);
    done += count;
    if (progress) progress(done, total);
  });
  const CaptureEnd end = capture_end_of(reader);
  for (EventSink *sink : sinks) sink->finish(catalog, end);
}

} // namespace prof::core
