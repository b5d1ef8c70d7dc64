// The shared-memory region of one capture: created by prof, mapped by the
// agent in every profiled process (found through PROF_AGENT_SHM).
#pragma once

#include "core/runtime/shm_layout.hpp"

#include <optional>
#include <string>
#include <string_view>

namespace prof::core {

struct ShmRegionConfig {
  uint32_t ring_count = 64;    ///< at most, as threads take them
  uint32_t initial_rings = 64; ///< backed from the start (0: the mount must have room for one)
  uint64_t ring_bytes = 16ull << 20;
  uint64_t watermark_bytes = 15ull << 20;
  uint64_t catalog_bytes = 8ull << 20;
  uint64_t initial_catalog_bytes = 1ull << 20; ///< reserved from the start
};

/// Where things are in a region, as prof laid it out (or the agent found it
/// at attach). Kept outside the shared memory: an application that writes
/// over the header cannot move prof's reads or writes elsewhere.
struct ShmLayout {
  uint32_t ring_count = 0;
  uint64_t ring_capacity = 0, ring_stride = 0, watermark_events = 0;
  uint64_t config_offset = 0, config_bytes = 0;
  uint64_t catalog_offset = 0, catalog_bytes = 0;
  uint64_t rings_offset = 0;
};

class ShmRegion {
public:
  ShmRegion() = default;
  ~ShmRegion();
  ShmRegion(ShmRegion &&other) noexcept;
  ShmRegion &operator=(ShmRegion &&other) noexcept;

  /// prof: creates `name` ("/prof-..."), reserves the memory of its header,
  /// catalog and initial rings, formats them and writes `config`. With too
  /// little shared memory it makes fewer rings (header()->ring_count says
  /// how many). Throws std::runtime_error, also when the mount has no room
  /// for one ring.
  static ShmRegion create(const std::string &name, const ShmRegionConfig &config,
                          std::string_view config_text);
  /// prof: reserves and formats up to `rings` more rings, then publishes
  /// them (rings_ready), under rings_lock. Returns how many; 0 when the
  /// region is whole or the shared-memory mount is full; nullopt when an
  /// application's thread holds the lock (try again later). Rings an
  /// application published are reserved again first: the header is not
  /// trusted to say what is backed.
  std::optional<uint32_t> grow(uint32_t rings);
  /// Any process: reserves, formats and publishes the next ring through the
  /// region's name, under rings_lock (waiting at most 20 ms for another
  /// thread holding it, never for the calling one): false when the lock
  /// could not be had, the region is whole or the mount full. True without
  /// reserving when another ring was published meanwhile.
  bool reserve_next_ring();
  /// prof: the rings backed so far, by prof's own count.
  uint32_t rings_ready() const { return ready_; }
  /// agent: maps an existing region; false with `error` set when it is not
  /// one (wrong magic, version or size).
  bool attach(const std::string &name, std::string *error);
  /// agent: maps the region open at `fd` (passed by prof over its control
  /// socket, so that a process in another mount namespace, a container,
  /// reaches a region its /dev/shm does not hold); `name` is for messages
  /// and, where reachable, for backing memory on kernels before 5.14. The
  /// caller closes `fd`; the region keeps no descriptor.
  bool attach_fd(int fd, const std::string &name, std::string *error);
  /// Removes the name (the memory stays until every process unmaps it).
  void unlink();
  /// Any process, holding the catalog lock: reserves the catalog log up to
  /// `bytes` from its start (at most its size) through the region's name,
  /// and publishes it (catalog_reserved). False when the name is gone or
  /// the mount is full.
  bool reserve_catalog(uint64_t bytes);

  ShmHeader *header() const { return header_; }
  const ShmLayout &layout() const { return layout_; }
  std::string_view config_text() const;
  char *catalog() const { return base() + layout_.catalog_offset; }
  char *rings() const { return base() + layout_.rings_offset; }
  const std::string &name() const { return name_; }
  /// prof: the region's descriptor, to pass to an agent; -1 elsewhere.
  int fd() const { return owner_ ? fd_ : -1; }
  explicit operator bool() const { return header_ != nullptr; }

private:
  char *base() const { return reinterpret_cast<char *>(header_); }
  void release();
  /// Reserves [offset, offset + bytes) of the region's memory.
  bool back(uint64_t offset, uint64_t bytes);
  /// Holding rings_lock: backs, formats and publishes ring `index`; when it
  /// cannot (the region whole, the mount full), sets rings_full.
  bool add_ring(uint32_t index);

  ShmHeader *header_ = nullptr;
  ShmLayout layout_;
  size_t bytes_ = 0;
  std::string name_;
  bool owner_ = false;
  bool by_name_ = true; ///< agent: attached by name, not by a passed descriptor
  int fd_ = -1;         ///< prof: kept to reserve more rings
  uint32_t ready_ = 0;  ///< prof: rings backed
};

/// A fresh region name for this process: "/prof-PID-RANDOM".
std::string new_shm_name();

/// Unlinks the regions that prof processes now dead left in /dev/shm (a prof
/// killed before it could): names "prof-PID-..." owned by this user whose
/// PID no longer runs. An application still mapping one keeps its mapping.
/// Returns how many were removed.
int remove_stale_regions();

} // namespace prof::core
