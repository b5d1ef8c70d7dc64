// Where drained events go: the report writer, exporter plugins, tests.
// Every call comes from the one thread that drains (or reads a report).
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/report/report_model.hpp"
#include "core/runtime/ring_pool.hpp"

#include <prof/event.h>

#include <cstdint>
#include <vector>

namespace prof::core {

/// How a capture ended, handed to every sink at the end.
struct CaptureEnd {
  uint64_t end_ns = 0;
  uint64_t events = 0;
  uint64_t dropped = 0;
  std::vector<RingDrops> drops;
  int exit_code = 0;     ///< the application's exit code
  int exit_signal = 0;   ///< signal that killed it, 0 if none

  /// Events or records lost under `cause`: `dropped` for full rings, the
  /// sum of that cause's records (report::cause_ring) for the others.
  uint64_t lost(prof_drop_cause cause) const {
    if (cause == PROF_DROP_RING_FULL) return dropped;
    if (!report::is_cause_ring(report::cause_ring(cause))) return 0;
    uint64_t total = 0;
    for (const RingDrops &d : drops)
      if (d.ring == report::cause_ring(cause)) total += d.dropped;
    return total;
  }
};

class EventSink {
public:
  virtual ~EventSink() = default;
  /// New strings, tracks or stacks appeared in the catalog: ids in
  /// [seen, now) for each table. Always called before the events that use them.
  virtual void catalog_grew(const Catalog &, const CatalogMark & /*seen*/,
                            const CatalogMark & /*now*/) {}
  /// A batch of events, timestamps in session nanoseconds.
  virtual void consume(const prof_event *events, size_t count) = 0;
  /// The capture (or the report) is complete.
  virtual void finish(const Catalog &, const CaptureEnd &) {}
};

} // namespace prof::core
