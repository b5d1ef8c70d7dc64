// A flight recorder's argument sets kept within what its rings hold. The
// argument table interns a set for every new combination of values (a step
// number, a sequence number, bytes), so over hours it grew past the
// recorder's bound. When the table holds more than twice the sets it kept
// at the last sweep, the sweeper marks the sets the kept events refer to
// and frees the others, whose ids later sets reuse. Safe only where nothing
// else remembers an id: a flight recorder capture with no exporter beside
// it. Every call on the thread that drains (EventSink's rule).
#pragma once

#include "core/catalog/args_table.hpp"

#include <prof/event.h>

#include <cstdint>
#include <functional>
#include <vector>

namespace prof::core {

/// What holds events between dumps: each flight recorder window.
class KeptEvents {
public:
  virtual ~KeptEvents() = default;
  /// Calls `visit` with every event kept.
  virtual void for_each_kept(const std::function<void(const prof_event &)> &visit) const = 0;
};

class ArgsSweeper {
public:
  /// Sweeps once the table holds this many sets at least.
  static constexpr size_t kFewestToSweep = 4096;

  explicit ArgsSweeper(ArgsTable &table) : table_(table) {}
  ArgsSweeper(const ArgsSweeper &) = delete;
  ArgsSweeper &operator=(const ArgsSweeper &) = delete;

  void add(const KeptEvents *keeper);
  void remove(const KeptEvents *keeper);
  /// After events were kept: sweeps when the table has grown to twice what
  /// the last sweep kept (and kFewestToSweep).
  void maybe_sweep();

  uint64_t sweeps() const { return sweeps_; }
  uint64_t freed() const { return freed_; }

private:
  ArgsTable &table_;
  std::vector<const KeptEvents *> keepers_;
  size_t kept_at_last_sweep_ = 0;
  uint64_t sweeps_ = 0, freed_ = 0;
};

} // namespace prof::core
