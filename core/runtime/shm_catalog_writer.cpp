#include "core/runtime/shm_catalog_writer.hpp"

#include "core/runtime/process_gone.hpp"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <mutex>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::core {

namespace {
size_t align8(size_t n) { return (n + 7) & ~size_t{7}; }
constexpr uint64_t kCatalogStep = 1ull << 20;
} // namespace

void ShmCatalogWriter::lock() {
  ShmHeader &h = *region_.header();
  const auto self = static_cast<int32_t>(getpid());
  std::chrono::steady_clock::time_point first_look{};
  for (unsigned spins = 0;; ++spins) {
    int32_t owner = 0;
    if (h.catalog_lock.compare_exchange_weak(owner, self, std::memory_order_acquire)) return;
    // A process that died holding the lock left at most a record past
    // catalog_end, which is simply written over. Where its pid cannot be
    // looked up (a container), one that held it a whole second is taken as dead.
    if (owner != 0 && spins % 1024 == 1023) {
      bool gone = false;
      if (!h.ids_unchecked.load(std::memory_order_relaxed)) {
        gone = process_gone(owner);
      } else {
        const auto now = std::chrono::steady_clock::now();
        if (first_look == std::chrono::steady_clock::time_point{}) first_look = now;
        gone = now - first_look > std::chrono::seconds(1);
      }
      if (gone && h.catalog_lock.compare_exchange_strong(owner, self, std::memory_order_acquire))
        return;
    }
    // Raw syscall: sched_yield may be interposed by a tracing plugin.
    if (spins % 64 == 63) syscall(SYS_sched_yield);
  }
}

void ShmCatalogWriter::unlock() {
  region_.header()->catalog_lock.store(0, std::memory_order_release);
}

template <class Fill>
uint32_t ShmCatalogWriter::append(uint16_t type, size_t payload_bytes, uint32_t *counter,
                                  Fill &&fill, uint16_t flags) {
  ShmHeader &h = *region_.header();
  const size_t record = align8(sizeof(ShmRecordHeader) + payload_bytes);
  lock();
  const uint64_t end = h.catalog_end.load(std::memory_order_relaxed);
  const uint64_t capacity =
      region_.layout().catalog_bytes; // not the header's: it may be written over
  // Past the reserved part: a megabyte more (or what the record needs).
  if (end > capacity || record > capacity - end ||
      (end + record > h.catalog_reserved.load(std::memory_order_acquire) &&
       !region_.reserve_catalog(std::max(end + record, end + kCatalogStep)))) {
    unlock();
    h.catalog_overflow.fetch_add(1, std::memory_order_relaxed);
    return 0;
  }
  const uint32_t id = counter ? (*counter)++ : 1;
  char *at = region_.catalog() + end;
  ShmRecordHeader header{type, flags, static_cast<uint32_t>(payload_bytes)};
  std::memcpy(at, &header, sizeof header);
  fill(at + sizeof header, id);
  h.catalog_end.store(end + record, std::memory_order_release);
  unlock();
  return id;
}

prof_string_id ShmCatalogWriter::intern_string(std::string_view text) {
  std::lock_guard guard(mutex_);
  if (auto it = strings_.find(std::string(text)); it != strings_.end()) return it->second;
  const uint32_t id = append(kShmString, 4 + text.size(), &region_.header()->next_string,
                             [&](char *out, uint32_t id) {
                               std::memcpy(out, &id, 4);
                               std::memcpy(out + 4, text.data(), text.size());
                             });
  if (id) strings_.emplace(text, id);
  return id;
}

prof_track_id ShmCatalogWriter::declare_track(const prof_track_desc &desc, bool names_process) {
  if (desc.name == nullptr) return 0;
  const std::string_view name = desc.name;
  const std::string_view unit = desc.unit ? desc.unit : "";
  // A plugin's kind may be no prof_track_kind at all: read as the integer it
  // is (prof refuses it), never loaded as the enum.
  uint32_t kind = 0;
  static_assert(sizeof desc.kind == sizeof kind);
  std::memcpy(&kind, &desc.kind, sizeof kind);
  const int32_t pid = own_pid_ != 0 && desc.pid == own_pid_ ? seen_pid_ : desc.pid;
  std::lock_guard guard(mutex_);
  return append(
      kShmTrack, sizeof(ShmTrackRecord) + name.size() + unit.size(), &region_.header()->next_track,
      [&](char *out, uint32_t id) {
        ShmTrackRecord record{id,
                              kind,
                              desc.parent,
                              pid,
                              desc.tid,
                              desc.index,
                              desc.clock,
                              static_cast<uint32_t>(name.size()),
                              desc.unit ? static_cast<uint32_t>(unit.size()) : UINT32_MAX};
        std::memcpy(out, &record, sizeof record);
        std::memcpy(out + sizeof record, name.data(), name.size());
        std::memcpy(out + sizeof record + name.size(), unit.data(), unit.size());
      },
      static_cast<uint16_t>((names_process ? kShmTrackNamesProcess : 0) |
                            ((desc.flags & PROF_TRACK_SHARED) != 0 ? kShmTrackShared : 0)));
}

prof_stack_id ShmCatalogWriter::intern_stack(std::span<const prof_string_id> frames) {
  std::vector<prof_string_id> key(frames.begin(), frames.end());
  std::lock_guard guard(mutex_);
  if (auto it = stacks_.find(key); it != stacks_.end()) return it->second;
  const auto count = static_cast<uint32_t>(frames.size());
  const uint32_t id = append(kShmStack, 8 + 4 * frames.size(), &region_.header()->next_stack,
                             [&](char *out, uint32_t id) {
                               std::memcpy(out, &id, 4);
                               std::memcpy(out + 4, &count, 4);
                               if (count > 0) // an empty span's data() may be null
                                 std::memcpy(out + 8, frames.data(), 4 * frames.size());
                             });
  if (id) stacks_.emplace(std::move(key), id);
  return id;
}

prof_clock_id ShmCatalogWriter::register_clock(std::string_view name, double frequency_hz) {
  if (name.empty() || !(frequency_hz > 0)) return 0;
  std::lock_guard guard(mutex_);
  return append(kShmClock, 12 + name.size(), &region_.header()->next_clock,
                [&](char *out, uint32_t id) {
                  std::memcpy(out, &id, 4);
                  std::memcpy(out + 4, &frequency_hz, 8);
                  std::memcpy(out + 12, name.data(), name.size());
                });
}

bool ShmCatalogWriter::add_calibration(prof_clock_id clock, uint64_t ticks, uint64_t session_ns) {
  std::lock_guard guard(mutex_);
  const auto last = calibrated_ns_.find(clock);
  if (last != calibrated_ns_.end() && session_ns >= last->second &&
      session_ns - last->second < kCalibrationSpacingNs)
    return false;
  calibrated_ns_[clock] = session_ns;
  append(kShmCalibration, 20, nullptr, [&](char *out, uint32_t) {
    std::memcpy(out, &clock, 4);
    std::memcpy(out + 4, &ticks, 8);
    std::memcpy(out + 12, &session_ns, 8);
  });
  return true;
}

} // namespace prof::core
