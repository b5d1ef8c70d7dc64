// Something the drain thread empties: the in-process rings, or the shared
// rings of profiled processes.
#pragma once

#include "core/runtime/ring_pool.hpp"

#include <prof/event.h>

#include <functional>
#include <vector>

namespace prof::core {

class EventSource {
public:
  virtual ~EventSource() = default;
  /// Hands waiting events to `consume` in batches, ids already those of the
  /// session's catalog; with `all` false only rings past the watermark.
  virtual size_t drain(const std::function<void(prof_event *, size_t)> &consume, bool all) = 0;
  virtual uint64_t dropped() const = 0;
  virtual std::vector<RingDrops> drops() const = 0;
};

} // namespace prof::core
