// Reads a report back into a catalog and feeds its events to sinks, so every
// exporter works on a saved report exactly as on a live capture.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/events/event_sink.hpp"
#include "core/report/report_reader.hpp"

#include <functional>
#include <vector>

namespace prof::core {

/// Fills `catalog` with the strings, tracks and stacks of `reader`.
void load_catalog(const report::ReportReader &reader, Catalog &catalog);

/// How the saved capture ended, from the footer (or what is known without one).
CaptureEnd capture_end_of(const report::ReportReader &reader);

/// Announces the catalog, streams every event batch to `sinks`, then
/// finishes them. `progress` (may be empty) gets events done / total. The
/// sinks run on the calling thread while a second thread decodes the next
/// few chunks. Returns the file offsets of EVENTS chunks that would not
/// decode (left out), for a reader opened without check_events.
std::vector<uint64_t> replay(const report::ReportReader &reader, const Catalog &catalog,
            const std::vector<EventSink *> &sinks,
            const std::function<void(uint64_t, uint64_t)> &progress);

} // namespace prof::core
