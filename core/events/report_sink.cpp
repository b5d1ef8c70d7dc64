#include "core/events/report_sink.hpp"

#include <map>
#include <string_view>
#include <vector>

namespace prof::core {

report::TrackRecord to_record(prof_track_id id, const TrackEntry &entry) {
  const prof_track_desc &d = entry.desc;
  return report::TrackRecord{id,    d.kind,  d.parent,   entry.name, d.pid,
                             d.tid, d.index, entry.unit, d.clock,    d.flags};
}

template <class F> void ReportSink::guarded(F &&write) {
  if (!error_.empty()) return;
  try {
    write();
  } catch (const std::exception &e) {
    error_ = e.what(); // a full disk must not stop the capture or the console output
  }
}

void ReportSink::catalog_grew(const Catalog &catalog, const CatalogMark &seen,
                              const CatalogMark &now) {
  guarded([&] {
    if (now.strings > seen.strings) {
      std::vector<std::string_view> texts;
      for (size_t id = seen.strings; id < now.strings; ++id)
        texts.push_back(catalog.strings.text(static_cast<prof_string_id>(id)));
      writer_.add_strings(static_cast<uint32_t>(seen.strings), texts);
    }
    if (now.tracks > seen.tracks) {
      std::vector<report::TrackRecord> tracks;
      for (size_t id = seen.tracks; id < now.tracks; ++id)
        if (const TrackEntry *entry = catalog.tracks.find(static_cast<prof_track_id>(id)))
          tracks.push_back(to_record(static_cast<prof_track_id>(id), *entry));
      writer_.add_tracks(tracks);
    }
    // A renamed track is written again with its new name: the last wins.
    if (now.track_renames > seen.track_renames) {
      std::vector<report::TrackRecord> tracks;
      for (auto &[id, name] : catalog.tracks.renames_between(seen.track_renames, now.track_renames))
        if (const TrackEntry *entry = catalog.tracks.find(id)) {
          tracks.push_back(to_record(id, *entry));
          tracks.back().name = std::move(name);
        }
      writer_.add_tracks(tracks);
    }
    if (now.stacks > seen.stacks) {
      std::vector<report::StackRecord> stacks;
      for (size_t id = seen.stacks; id < now.stacks; ++id) {
        auto frames = catalog.stacks.frames(static_cast<prof_stack_id>(id));
        stacks.push_back({static_cast<uint32_t>(id), {frames.begin(), frames.end()}});
      }
      writer_.add_stacks(stacks);
    }
    if (now.args > seen.args) {
      std::vector<report::ArgsRecord> sets;
      for (size_t id = seen.args; id < now.args; ++id) { // marks start past set 0
        auto args = catalog.args.args(static_cast<prof_args_id>(id));
        if (args.empty()) continue; // freed by a flight recorder's sweep
        sets.push_back({static_cast<uint32_t>(id), {args.begin(), args.end()}});
      }
      if (!sets.empty()) writer_.add_args(sets);
    }
  });
}

void ReportSink::consume(const prof_event *events, size_t count) {
  guarded([&] {
    writer_.add_events(events, count);
    const auto now = std::chrono::steady_clock::now();
    if (now - last_flush_ >= kFlushInterval) {
      writer_.flush();
      last_flush_ = now;
    }
  });
}

void ReportSink::finish(const Catalog &catalog, const CaptureEnd &end) {
  guarded([&] {
    std::vector<report::ClockDomainRecord> clocks;
    for (size_t id = 1; id < catalog.clocks.size(); ++id) {
      const ClockDomain *domain = catalog.clocks.find(static_cast<prof_clock_id>(id));
      if (!domain) continue;
      report::ClockDomainRecord record{static_cast<uint32_t>(id), domain->name(),
                                       domain->frequency_hz(), {}};
      for (auto [ticks, ns] : domain->calibration()) record.calibration.push_back({ticks, ns});
      clocks.push_back(std::move(record));
    }
    writer_.add_clock_domains(clocks);
    std::vector<report::DropRecord> drops;
    // One record per ring owner: a ring reused by a later thread gets its own entry.
    // Every other cause, summed over the sources, is one record of its own.
    std::map<uint32_t, uint64_t> by_cause;
    for (size_t i = 0; i < end.drops.size(); ++i) {
      if (report::is_cause_ring(end.drops[i].ring))
        by_cause[end.drops[i].ring] += end.drops[i].dropped;
      else
        drops.push_back({static_cast<uint32_t>(i), end.drops[i].tid, end.drops[i].dropped});
    }
    for (const auto &[ring, count] : by_cause)
      if (count > 0) drops.push_back({ring, 0, count});
    writer_.add_drops(drops);
    report::Footer footer;
    footer.end_ns = end.end_ns;
    footer.dropped = end.dropped;
    footer.exit_status = end.exit_code;
    footer.killed_by_signal = end.exit_signal != 0;
    footer.signal = end.exit_signal;
    writer_.finish(footer);
  });
}

} // namespace prof::core
