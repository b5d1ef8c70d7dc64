// Fuzzes the shared region as prof reads it. The input is a script of what
// the processes mapping it do: honest agent calls (define strings, tracks,
// stacks, clocks; emit events with arguments; post capture requests) and
// wild writes anywhere in the region (header, slot table, catalog log, ring
// headers and slots), interleaved with prof's drains. Whatever an
// application writes, prof must not crash, hang, or read or write outside
// the region (guard pages around the mapping fault on a stray access).
#include "core/catalog/args_folding.hpp"
#include "core/events/shm_event_source.hpp"
#include "core/runtime/capture_requests.hpp"
#include "core/runtime/event_args_record.hpp"
#include "core/runtime/ring_pool.hpp"
#include "core/runtime/shm_catalog_writer.hpp"

#include <fuzzer/FuzzedDataProvider.h>
#include <spdlog/spdlog.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <unistd.h>
#include <vector>

namespace {

using namespace prof::core;

// A small region, made once; each input starts from a copy of it as created.
struct Region {
  ShmRegion region;
  std::vector<char> pristine;
  size_t bytes = 0;

  Region() {
    ShmRegionConfig config;
    config.ring_count = 4;
    config.ring_bytes = 64 * 1024;
    config.watermark_bytes = 32 * 1024;
    config.catalog_bytes = 16 * 1024;
    region = ShmRegion::create(new_shm_name(), config, "fuzz");
    region.unlink();
    const ShmLayout &l = region.layout();
    bytes = l.rings_offset + l.ring_count * l.ring_stride;
    pristine.assign(base(), base() + bytes);
    const size_t mapped = (region.header()->total_bytes + page() - 1) / page() * page();
    guard(base() - page(), page());
    guard(base() + mapped, page());
  }
  static size_t page() { return static_cast<size_t>(sysconf(_SC_PAGESIZE)); }
  // An inaccessible page at `at`, unless something is mapped there already.
  static void guard(char *at, size_t size) {
    mmap(at, size, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
  }
  char *base() const { return reinterpret_cast<char *>(region.header()); }
  void reset() { std::memcpy(base(), pristine.data(), bytes); }
};

enum Op : uint8_t {
  kString,
  kTrack,
  kStack,
  kClock,
  kCalibration,
  kEmit,
  kEmitWithArgs,
  kRequest,
  kScribble,
  kDrain,
  kSyncCatalog,
  kTakeRequests,
  kOpCount
};

// Parts of the region a wild write aims at: [offset, offset + size).
struct Area {
  size_t offset, size;
};

Area pick_area(FuzzedDataProvider &in, const ShmRegion &region) {
  const ShmLayout &l = region.layout();
  const uint32_t ring = in.ConsumeIntegralInRange<uint32_t>(0, l.ring_count - 1);
  const size_t ring_at = l.rings_offset + ring * l.ring_stride;
  switch (in.ConsumeIntegralInRange(0, 5)) {
  case 0: // header fields, counters and request slots
    return {0, offsetof(ShmHeader, slots)};
  case 1:
    return {offsetof(ShmHeader, slots), sizeof(RingSlot) * l.ring_count};
  case 2:
    return {l.catalog_offset, l.catalog_bytes};
  case 3: // ring positions
    return {ring_at, sizeof(RingHeader)};
  case 4:
    return {ring_at + sizeof(RingHeader), l.ring_stride - sizeof(RingHeader)};
  default:
    return {0, l.rings_offset + l.ring_count * l.ring_stride};
  }
}

void scribble(FuzzedDataProvider &in, const ShmRegion &region) {
  const Area area = pick_area(in, region);
  const size_t at = area.offset + in.ConsumeIntegralInRange<size_t>(0, area.size - 1);
  const size_t most = area.offset + area.size - at;
  const std::vector<uint8_t> bytes =
      in.ConsumeBytes<uint8_t>(in.ConsumeIntegralInRange<size_t>(1, most < 64 ? most : 64));
  if (!bytes.empty())
    std::memcpy(reinterpret_cast<char *>(region.header()) + at, bytes.data(), bytes.size());
}

prof_event event_from(FuzzedDataProvider &in) {
  prof_event e{};
  e.type = in.ConsumeIntegralInRange<uint8_t>(0, 6);
  if (in.ConsumeBool()) e.type = kArgsRecord;
  e.flags = in.ConsumeIntegral<uint8_t>();
  e.kind = in.ConsumeIntegral<uint16_t>();
  e.track = in.ConsumeIntegralInRange<uint32_t>(0, 8);
  e.name = in.ConsumeIntegralInRange<uint32_t>(0, 8);
  e.category = in.ConsumeBool() ? in.ConsumeIntegral<uint32_t>() : 0;
  e.ts = in.ConsumeIntegral<uint64_t>();
  e.duration = in.ConsumeIntegral<uint64_t>();
  e.id = in.ConsumeIntegralInRange<uint64_t>(0, 8);
  e.args = in.ConsumeIntegral<uint64_t>();
  return e;
}

// What prof's drain does with a batch: fold arguments, read every name.
void consume(Catalog &catalog, prof_event *events, size_t count) {
  count = fold_args(events, count, catalog.args);
  size_t texts = 0;
  for (size_t i = 0; i < count; ++i) {
    texts += catalog.strings.text(events[i].name).size();
    texts += catalog.strings.text(events[i].category).size();
    if (catalog.tracks.find(events[i].track) == nullptr) std::abort(); // translated ids exist
  }
  (void)texts;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  spdlog::set_level(spdlog::level::off); // corruption warnings, once per input
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  static Region shared;
  shared.reset();
  ShmRegion &region = shared.region;
  ShmHeader &header = *region.header();
  FuzzedDataProvider in(data, size);

  // The application's side, with the sizes it found at attach; made once
  // (its batch buffer is large), its thread claims a ring afresh each input.
  const ShmLayout &l = region.layout();
  static RingPool producer(region.rings(), l.ring_stride, header.slots, l.ring_count,
                           l.ring_capacity, l.watermark_events, &header.no_ring_drops, false);
  RingPool::forget_thread_ring();
  ShmCatalogWriter writer(region);
  // prof's side.
  Catalog catalog;
  ShmEventSource source(region, catalog);
  CaptureRequestReader requests(header);
  const auto drain = [&](bool all) {
    source.drain([&](prof_event *events, size_t n) { consume(catalog, events, n); }, all);
  };

  std::vector<uint32_t> ids{0};
  const auto some_id = [&] { return ids[in.ConsumeIntegralInRange<size_t>(0, ids.size() - 1)]; };
  while (in.remaining_bytes() > 0) {
    // The application's own writes may leave its catalog lock taken by a
    // live pid, which would hang its writer, not prof: keep it free.
    header.catalog_lock.store(0);
    switch (in.ConsumeIntegralInRange<uint8_t>(0, kOpCount - 1)) {
    case kString:
      ids.push_back(writer.intern_string(in.ConsumeRandomLengthString(64)));
      break;
    case kTrack: {
      const std::string name = in.ConsumeRandomLengthString(32);
      const std::string unit = in.ConsumeRandomLengthString(8);
      prof_track_desc desc{sizeof(prof_track_desc),
                           static_cast<prof_track_kind>(in.ConsumeIntegralInRange(0, 12)),
                           some_id(),
                           name.c_str(),
                           in.ConsumeIntegral<int32_t>(),
                           in.ConsumeIntegral<int32_t>(),
                           in.ConsumeIntegral<int32_t>(),
                           in.ConsumeBool() ? unit.c_str() : nullptr,
                           some_id()};
      ids.push_back(writer.declare_track(desc));
      break;
    }
    case kStack: {
      std::vector<prof_string_id> frames(in.ConsumeIntegralInRange(0, 8));
      for (auto &frame : frames)
        frame = some_id();
      ids.push_back(writer.intern_stack(frames));
      break;
    }
    case kClock:
      ids.push_back(writer.register_clock(in.ConsumeRandomLengthString(16),
                                          in.ConsumeFloatingPoint<double>()));
      break;
    case kCalibration:
      writer.add_calibration(some_id(), in.ConsumeIntegral<uint64_t>(),
                             in.ConsumeIntegral<uint64_t>());
      break;
    case kEmit:
      for (int n = in.ConsumeIntegralInRange(1, 64), i = 0; i < n; ++i)
        producer.emit(event_from(in));
      break;
    case kEmitWithArgs: {
      const prof_event event = event_from(in);
      prof_arg args[PROF_MAX_ARGS]{};
      const uint32_t count = in.ConsumeIntegralInRange<uint32_t>(0, PROF_MAX_ARGS);
      for (uint32_t i = 0; i < count; ++i) {
        args[i].key = some_id();
        args[i].type = in.ConsumeIntegralInRange<uint32_t>(0, 6);
        args[i].value.u = in.ConsumeIntegral<uint64_t>();
      }
      prof_event records[kMaxRecordsPerEvent];
      producer.emit_group(records, pack_event_args(event, args, count, records));
      break;
    }
    case kRequest:
      post_capture_request(header,
                           {in.ConsumeIntegralInRange<uint32_t>(0, 4),
                            in.ConsumeIntegral<int32_t>(), in.ConsumeIntegral<uint64_t>(),
                            in.ConsumeRandomLengthString(128), in.ConsumeRandomLengthString(40)});
      break;
    case kScribble:
      scribble(in, region);
      break;
    case kDrain:
      drain(in.ConsumeBool());
      break;
    case kSyncCatalog:
      source.sync_catalog();
      break;
    case kTakeRequests:
      for (const CaptureRequest &r : requests.take())
        if (r.name.size() > kRequestNameBytes || r.domain.size() > kRequestDomainBytes)
          std::abort(); // read past a slot's text
      break;
    }
  }
  drain(true);
  (void)source.drops();
  (void)source.dropped();
  (void)source.catalog_overflow();
  (void)requests.take();
  (void)requests.lost();
  return 0;
}
