#include "forward_tables.hpp"

namespace prof::torch {

ForwardTables::~ForwardTables() {
  for (auto &table : tables_)
    delete table.load();
}

ForwardTables::Table *ForwardTables::table(uint64_t thread, bool create) {
  if (thread >= kThreads) return nullptr;
  Table *table = tables_[thread].load(std::memory_order_acquire);
  if (table != nullptr || !create) return table;
  auto *made = new Table;
  if (tables_[thread].compare_exchange_strong(table, made, std::memory_order_acq_rel)) return made;
  delete made; // another thread of the same number (torch reuses none) was first
  return table;
}

void ForwardTables::record(uint64_t thread, int64_t sequence, uint64_t ts, prof_track_id track) {
  Table *table = this->table(thread, true);
  if (table == nullptr || sequence < 0) return;
  Slot &slot = table->slots[static_cast<uint64_t>(sequence) % kSlots];
  slot.sequence.store(-1, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_release);
  slot.ts.store(ts, std::memory_order_relaxed);
  slot.track.store(track, std::memory_order_relaxed);
  slot.sequence.store(sequence, std::memory_order_release);
}

bool ForwardTables::take(uint64_t thread, int64_t sequence, uint64_t &ts, prof_track_id &track) {
  Table *table = this->table(thread, false);
  if (table == nullptr || sequence < 0) return false;
  Slot &slot = table->slots[static_cast<uint64_t>(sequence) % kSlots];
  int64_t seen = slot.sequence.load(std::memory_order_acquire);
  if (seen != sequence) return false;
  ts = slot.ts.load(std::memory_order_relaxed);
  track = slot.track.load(std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_acquire);
  // Unchanged meanwhile, and taken by this call only.
  return slot.sequence.compare_exchange_strong(seen, -1, std::memory_order_acq_rel);
}

} // namespace prof::torch
