#include "core/events/shm_event_source.hpp"

#include "core/report/report_model.hpp"
#include "core/runtime/event_args_record.hpp"
#include "core/runtime/page_give_back.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstring>
#include <string_view>

namespace prof::core {

namespace {
template <class T> T read_at(const char *p) {
  T value;
  std::memcpy(&value, p, sizeof value);
  return value;
}

} // namespace

ShmEventSource::ShmEventSource(ShmRegion &region, Catalog &catalog)
    : region_(region), catalog_(catalog) {
  // Sizes from prof's own layout, never from the header an application can write.
  ShmHeader &h = *region.header();
  const ShmLayout &l = region.layout();
  pool_ = std::make_unique<RingPool>(region.rings(), l.ring_stride, h.slots, l.ring_count,
                                     l.ring_capacity, l.watermark_events, &h.no_ring_drops, true);
  // The application's rings are reserved in full when made; what prof's
  // mapping of them has read need not stay in prof's memory.
  pool_->set_give_back(RingPool::GiveBack::SharedMemory);
  pool_->check_owners_unless(&h.ids_unchecked);
  // Ids are handed out one per definition, and a definition takes at least
  // one record header: no honest id reaches this.
  max_id_ = l.catalog_bytes / sizeof(ShmRecordHeader) + 2;
}

uint64_t ShmEventSource::dropped() const { return pool_->dropped(); }

uint64_t ShmEventSource::catalog_overflow() const {
  return region_.header()->catalog_overflow.load(std::memory_order_relaxed);
}

void ShmEventSource::sync_catalog() {
  ShmHeader &h = *region_.header();
  const uint64_t end =
      std::min(h.catalog_end.load(std::memory_order_acquire), region_.layout().catalog_bytes);
  const char *log = region_.catalog();
  while (read_offset_ + sizeof(ShmRecordHeader) <= end) {
    const auto header = read_at<ShmRecordHeader>(log + read_offset_);
    const uint64_t next = read_offset_ + ((sizeof header + header.bytes + 7) & ~uint64_t{7});
    if (next > end) break; // never published past end; a bad length stops the reading
    apply(header.type, header.flags, log + read_offset_ + sizeof header, header.bytes);
    read_offset_ = next;
  }
  // What was read is in prof's tables now: prof's mapping of it need not
  // stay resident (the log keeps its contents; only the pages go). Reading
  // maps the neighbours of a page back (fault-around): they go again.
  const auto read_end = reinterpret_cast<uintptr_t>(log) + read_offset_;
  if (read_end >= catalog_given_back_ + page_bytes()) {
    const uintptr_t from = std::max(
        catalog_given_back_ - std::min<uintptr_t>(catalog_given_back_, RingPool::kFaultAroundBytes),
        reinterpret_cast<uintptr_t>(log));
    if (const uintptr_t given_back = give_back_whole_pages(from, read_end))
      catalog_given_back_ = given_back;
  }
}

bool ShmEventSource::possible_id(uint32_t shared) {
  if (shared < max_id_) return true;
  ++corrupt_definitions_; // written over: the definition is lost, not the capture
  return false;
}

void ShmEventSource::put(std::vector<uint32_t> &ids, uint32_t shared, uint32_t session) {
  if (ids.size() <= shared) ids.resize(shared + 1, kUndefined);
  ids[shared] = session;
}

void ShmEventSource::apply(uint16_t type, uint16_t flags, const char *p, uint32_t bytes) {
  // Every definition starts with its id: one no log could hold is not followed.
  if (type != kShmCalibration && bytes >= 4 && !possible_id(read_at<uint32_t>(p))) return;
  switch (type) {
  case kShmString:
    if (bytes >= 4)
      put(strings_, read_at<uint32_t>(p),
          catalog_.strings.intern(std::string_view(p + 4, bytes - 4)));
    break;
  case kShmTrack: {
    if (bytes < sizeof(ShmTrackRecord)) break;
    const auto r = read_at<ShmTrackRecord>(p);
    const uint64_t unit_bytes = r.unit_bytes == UINT32_MAX ? 0 : r.unit_bytes;
    if (sizeof r + uint64_t{r.name_bytes} + unit_bytes > bytes) break;
    const std::string name(p + sizeof r, r.name_bytes);
    const std::string unit(p + sizeof r + r.name_bytes, unit_bytes);
    prof_track_desc desc{sizeof(prof_track_desc),
                         static_cast<prof_track_kind>(r.kind),
                         map(tracks_, r.parent),
                         name.c_str(),
                         r.pid,
                         r.tid,
                         r.index,
                         r.unit_bytes == UINT32_MAX ? nullptr : unit.c_str(),
                         map(clocks_, r.clock),
                         (flags & kShmTrackShared) != 0 ? PROF_TRACK_SHARED : 0u};
    // A track prof refuses (unknown kind or parent) stays undefined: events
    // on it are refused and counted, never put on the root. A process that
    // exec'd names its tracks again after its new program.
    const prof_track_id track = (flags & kShmTrackNamesProcess) != 0
                                    ? catalog_.tracks.declare_renaming(&desc)
                                    : catalog_.tracks.declare(&desc);
    if (track != 0) put(tracks_, r.id, track);
    break;
  }
  case kShmStack: {
    if (bytes < 8) break;
    const auto id = read_at<uint32_t>(p);
    const auto count = read_at<uint32_t>(p + 4);
    if (8 + uint64_t{count} * 4 > bytes) break;
    std::vector<prof_string_id> frames(count);
    for (uint32_t i = 0; i < count; ++i)
      frames[i] = map(strings_, read_at<uint32_t>(p + 8 + 4 * i));
    put(stacks_, id, catalog_.stacks.intern(frames));
    break;
  }
  case kShmClock:
    if (bytes >= 12)
      put(clocks_, read_at<uint32_t>(p),
          catalog_.clocks.add(std::string(p + 12, bytes - 12), read_at<double>(p + 4)));
    break;
  case kShmCalibration:
    if (bytes >= 20) {
      const prof_clock_id clock = map(clocks_, read_at<uint32_t>(p));
      if (ClockDomain *domain = clock > PROF_CLOCK_TSC ? catalog_.clocks.find(clock) : nullptr)
        domain->add_calibration(read_at<uint64_t>(p + 4), read_at<uint64_t>(p + 12));
    }
    break;
  default:
    break; // a newer agent's record: skipped
  }
}

size_t ShmEventSource::translate(prof_event *events, size_t count) {
  size_t kept = 0;
  for (size_t i = 0; i < count; ++i) {
    prof_event e = events[i];
    if (e.type == kArgsRecord) {
      map_args_record_ids(
          e, [this](prof_string_id id) { return map(strings_, id); },
          [this](prof_stack_id id) { return map(stacks_, id); });
      events[kept++] = e; // one whose event was refused is dropped where sets are folded
      continue;
    }
    // An id the application's catalog never defined maps to 0: its event
    // named what its source never declared, and is refused and counted.
    const bool stack_ok =
        e.type != PROF_EVENT_SAMPLE || defined(stacks_, static_cast<uint32_t>(e.id));
    if (e.track == 0 || !defined(tracks_, e.track) || !defined(strings_, e.name) ||
        !defined(strings_, e.category) || !stack_ok) {
      ++invalid_;
      continue;
    }
    e.track = map(tracks_, e.track);
    e.name = map(strings_, e.name);
    e.category = map(strings_, e.category);
    // Arguments reach prof only as records after their event (folded by the
    // drain): an id an application wrote itself is not to be trusted.
    if (e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT) e.args = 0;
    if (e.type == PROF_EVENT_SAMPLE) e.id = map(stacks_, static_cast<uint32_t>(e.id));
    events[kept++] = e;
  }
  return kept;
}

std::vector<RingDrops> ShmEventSource::drops() const {
  std::vector<RingDrops> drops = pool_->drops();
  if (invalid_ > 0) drops.push_back({report::kInvalidEventsRing, 0, invalid_});
  // Counters in the application's memory: stated as it says (a scribbled
  // one gives a wrong number, never a crash).
  const ShmHeader &header = *region_.header();
  for (prof_drop_cause cause : {PROF_DROP_DEVICE_BUFFER_FULL, PROF_DROP_KERNEL_LOST})
    if (const uint64_t lost = header.plugin_drops[cause].load(std::memory_order_relaxed))
      drops.push_back({report::cause_ring(cause), 0, lost});
  if (const uint64_t lost = catalog_overflow())
    drops.push_back({report::cause_ring(PROF_DROP_CATALOG_FULL), 0, lost});
  return drops;
}

size_t ShmEventSource::drain(const std::function<void(prof_event *, size_t)> &consume, bool all) {
  // A definition is published before any event that uses it is pushed, so
  // reading the log after popping a batch resolves every id in it (reading
  // it before the pop would miss what was defined in between).
  const size_t drained = pool_->drain(
      [&](prof_event *events, size_t count) {
        sync_catalog();
        if (const size_t kept = translate(events, count)) consume(events, kept);
      },
      all);
  warn_about_corruption();
  // Full drains (every 16th, and the last ones at the end) leave spares to
  // the others: a last drain's spare would be reserved and given back unused.
  if (!all) keep_rings_spare();
  return drained;
}

void ShmEventSource::keep_rings_spare() {
  if (cannot_grow_) return;
  // Rings the application's threads reserved themselves count too; grow()
  // backs them again before prof relies on them.
  const uint32_t ready = std::min(region_.header()->rings_ready.load(std::memory_order_acquire),
                                  region_.layout().ring_count);
  if (ready >= region_.layout().ring_count) {
    cannot_grow_ = true;
    return;
  }
  // A thread of the application may have found the mount full first.
  bool full = region_.header()->rings_full.load(std::memory_order_relaxed) != 0;
  if (!full) {
    uint32_t spare = 0;
    const RingSlot *slots = region_.header()->slots;
    for (uint32_t i = 0; i < ready; ++i)
      spare += slots[i].state.load(std::memory_order_relaxed) == RingPool::kFree;
    if (spare >= kSpareRings) return;
    const std::optional<uint32_t> added = region_.grow(kSpareRings - spare);
    if (!added) return; // a thread of the application is reserving one: the next drain
    full = *added == 0;
  }
  if (full) {
    cannot_grow_ = true;
    spdlog::warn("shared memory is full: the application's threads have {} event rings, and a "
                 "thread that finds them all taken loses its events (counted); give /dev/shm "
                 "more room or lower --host-ringbuffer-size",
                 ready);
  }
}

void ShmEventSource::warn_about_corruption() {
  for (const CorruptRing &r : pool_->take_corrupt_rings())
    spdlog::warn("process {} thread {}: its event ring was written over (head {}, tail {}); "
                 "the events still in it are lost, the rest of the capture is kept",
                 r.pid, r.tid, r.head, r.tail);
  if (corrupt_definitions_ > reported_corrupt_definitions_) {
    spdlog::warn("the shared catalog was written over: {} definitions with impossible ids were "
                 "ignored; events that use them have no name or track",
                 corrupt_definitions_ - reported_corrupt_definitions_);
    reported_corrupt_definitions_ = corrupt_definitions_;
  }
}

} // namespace prof::core
