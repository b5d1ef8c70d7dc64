// Session-wide argument sets: the typed arguments of slices and instants,
// interned so that events with equal arguments share one set. A flight
// recorder capture frees the sets its kept events no longer refer to, and
// later interns reuse their ids (release_unreferenced).
#pragma once

#include "core/catalog/stable_vector.hpp"

#include <prof/event.h>

#include <atomic>
#include <mutex>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::core {

class ArgsTable {
public:
  ArgsTable(); // id 0 is the empty set
  ArgsTable(const ArgsTable &) = delete;
  ArgsTable &operator=(const ArgsTable &) = delete;

  /// The id of the set holding `args` in this order; 0 for none.
  prof_args_id intern(std::span<const prof_arg> args);
  /// Puts `args` at exactly `id` (reading a report); gaps stay empty.
  void restore(prof_args_id id, std::span<const prof_arg> args);
  /// Arguments of `id`, empty for an unknown id.
  std::span<const prof_arg> args(prof_args_id id) const;
  size_t size() const { return published_.load(std::memory_order_acquire); }

  /// Frees every set `referenced` (indexed by id; ids past its end count as
  /// unreferenced) does not mark, and lets later interns reuse their ids;
  /// how many it freed. Only where nothing remembers an id past the events
  /// that carry it, on the thread that interns: a flight recorder's own
  /// rings (core/capture/args_sweeper.hpp), with no exporter beside them.
  size_t release_unreferenced(const std::vector<bool> &referenced);
  /// Sets held now: size() less the freed ids not reused yet.
  size_t live() const;

private:
  static std::string key_of(std::span<const prof_arg> args);

  StableVector<std::vector<prof_arg>> sets_;
  std::unordered_map<std::string, prof_args_id> ids_;
  std::vector<prof_args_id> free_; ///< freed ids, reused last first
  mutable std::mutex mutex_;
  std::atomic<size_t> published_{0};
};

} // namespace prof::core
