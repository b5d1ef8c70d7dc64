// Writes the drained stream into a .profrep: catalog growth first, then
// the events that use it; clocks, drops and the footer at the end.
#pragma once

#include "core/events/event_sink.hpp"
#include "core/report/report_writer.hpp"

#include <chrono>

namespace prof::core {

class ReportSink final : public EventSink {
public:
  /// `writer` must be open.
  explicit ReportSink(report::ReportWriter &writer) : writer_(writer) {}

  /// Longest time drained events wait in the writer's buffer: if prof dies,
  /// what reached the file before stays readable.
  static constexpr std::chrono::milliseconds kFlushInterval{500};

  void catalog_grew(const Catalog &catalog, const CatalogMark &seen,
                    const CatalogMark &now) override;
  void consume(const prof_event *events, size_t count) override;
  /// Writes clocks, drops and the END chunk, and closes the file.
  void finish(const Catalog &catalog, const CaptureEnd &end) override;
  /// The first write error, empty when none (writes stop after one).
  const std::string &error() const { return error_; }

private:
  template <class F> void guarded(F &&write);
  report::ReportWriter &writer_;
  std::string error_;
  std::chrono::steady_clock::time_point last_flush_ = std::chrono::steady_clock::now();
};

/// A track of the catalog as the report stores it.
report::TrackRecord to_record(prof_track_id id, const TrackEntry &entry);

} // namespace prof::core
