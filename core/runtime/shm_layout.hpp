// Layout of the memory prof shares with the agent in profiled processes:
//   [ShmHeader][config text][catalog log][ring 0][ring 1]...
// prof creates it (ShmRegion::create), the agent maps it by name. Only
// fixed-size fields and lock-free atomics, so every process reads it alike.
// The file has room for ring_count rings, but only the first rings_ready are
// backed by reserved memory; prof keeps a spare one reserved as threads take
// them, and a thread that finds none reserves the next itself. The catalog
// likewise: its first catalog_reserved bytes, more as it fills.
#pragma once

#include "core/runtime/ring_pool.hpp"

#include <prof/plugin.h>

#include <atomic>
#include <cstdint>

namespace prof::core {

constexpr uint64_t kShmMagic = 0x31304d5346524f50ull; // "PROFSM01"
constexpr uint32_t kShmVersion = 9;
constexpr uint32_t kCaptureRequestSlots = 64;
constexpr uint32_t kRequestNameBytes = 96;
constexpr uint32_t kRequestDomainBytes = 32;
constexpr uint32_t kMaxShmRings = 1024;

/// A capture request of the application (prof_start(), an annotation range
/// prof --capture-range waits for): written by the agent, read by prof.
struct CaptureRequestSlot {
  std::atomic<uint64_t> sequence; ///< index + 1 once the slot is written
  uint32_t kind;                  ///< prof_capture_request_kind
  int32_t pid;
  uint64_t ts;                  ///< session clock
  char name[kRequestNameBytes]; ///< NUL-terminated, cut to fit
  char domain[kRequestDomainBytes];
};

struct ShmHeader {
  uint64_t magic;
  uint32_t version;
  int32_t prof_pid;                  ///< the prof that drains; the agent stops when it is gone
  uint32_t ring_count;               ///< rings the region can hold
  std::atomic<uint32_t> rings_ready; ///< rings [0, rings_ready) are backed and formatted
  /// Taken (0 = free, else the owner's thread id) to reserve the next ring:
  /// by a thread of the application that found every ring taken, or by
  /// prof. prof never waits for it, the application's threads briefly; one
  /// left by a dead thread is taken over.
  std::atomic<int32_t> rings_lock;
  /// Set when a ring could not be reserved (the mount is full): threads
  /// stop trying, so that each of their emits stays cheap.
  std::atomic<uint32_t> rings_full;
  uint64_t ring_capacity; ///< events per ring
  uint64_t ring_stride;   ///< bytes from one ring to the next
  uint64_t watermark_events;
  uint64_t config_offset, config_bytes;
  uint64_t catalog_offset, catalog_bytes;
  uint64_t rings_offset;
  uint64_t total_bytes;

  /// The catalog log: records appended under `catalog_lock` (0 = free, else
  /// the owner's pid, so a lock left by a dead process can be taken over),
  /// published up to `catalog_end`.
  std::atomic<int32_t> catalog_lock;
  std::atomic<uint64_t> catalog_end;
  /// Bytes of the log backed by reserved memory from its start: a writer
  /// that needs more reserves it first (ShmRegion::reserve_catalog), under
  /// the lock, so that no page it touches can fail (SIGBUS) on a full mount.
  std::atomic<uint64_t> catalog_reserved;
  uint32_t next_string, next_track, next_stack, next_clock; ///< under the lock
  std::atomic<uint64_t> catalog_overflow;                   ///< definitions refused: log full
  std::atomic<uint64_t> no_ring_drops;                      ///< emits that found every ring taken
  /// Records the application's plugins lost, by prof_drop_cause (device
  /// buffer full, kernel lost): counted through prof_host_api::count_dropped.
  std::atomic<uint64_t> plugin_drops[PROF_DROP_CAUSE_COUNT];
  /// Capture requests: slot i % kCaptureRequestSlots holds request i.
  std::atomic<uint64_t> capture_requests;
  CaptureRequestSlot capture_request_slots[kCaptureRequestSlots];
  /// What prof reads of them, set before the application runs: a bit per
  /// prof_capture_request_kind, and the one annotation range it waits for
  /// (domain "*": any). The agent posts nothing else, so an application's
  /// annotations cost no shared write unless prof waits for them.
  std::atomic<uint32_t> wanted_requests;
  char wanted_range_name[kRequestNameBytes];
  char wanted_range_domain[kRequestDomainBytes];
  /// Flight recorder dumps: prof bumps `unfinished_asked` (a shared futex)
  /// and each process's agent answers by emitting its plugins' unfinished
  /// slices, then setting `unfinished_told` to the number it answered.
  std::atomic<uint32_t> unfinished_asked;
  std::atomic<uint32_t> unfinished_told;
  /// Set by prof before a process in another pid namespace (a container)
  /// joins: the pids and thread ids written here are then not all looked up
  /// in one namespace, so nobody judges their owners gone by them. No lock
  /// or ring is taken over, and the agents never conclude that prof died.
  std::atomic<uint32_t> ids_unchecked;
  RingSlot slots[kMaxShmRings];
};

/// One definition in the catalog log; `bytes` counts the payload, and the
/// next record starts at the next multiple of 8.
struct ShmRecordHeader {
  uint16_t type;
  uint16_t flags; ///< kShmTrack* bits, or 0
  uint32_t bytes;
};

/// On a kShmTrack record: declared by the agent as the image a process runs
/// now starts, so its name replaces the one an earlier image (before exec)
/// gave the track. Other declarations of a track keep its name.
inline constexpr uint16_t kShmTrackNamesProcess = 1;
/// On a kShmTrack record: the track is PROF_TRACK_SHARED (ABI 1.10); an
/// older prof ignores the bit.
inline constexpr uint16_t kShmTrackShared = 2;

enum ShmRecordType : uint16_t {
  kShmString = 1,      ///< u32 id, text
  kShmTrack = 2,       ///< ShmTrackRecord, then name, then unit
  kShmStack = 3,       ///< u32 id, u32 count, u32 frames[count]
  kShmClock = 4,       ///< u32 id, f64 frequency, name
  kShmCalibration = 5, ///< u32 clock, u64 ticks, u64 session ns
};

struct ShmTrackRecord {
  uint32_t id;
  uint32_t kind;
  uint32_t parent;
  int32_t pid, tid, index;
  uint32_t clock;
  uint32_t name_bytes;
  uint32_t unit_bytes; ///< UINT32_MAX: no unit
};

} // namespace prof::core
