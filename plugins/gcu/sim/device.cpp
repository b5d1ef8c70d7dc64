#include "device.hpp"

#include "host_clock.hpp"

#include <prof/event.h>

#include <cerrno>
#include <cstring>
#include <ctime>

namespace prof::gcusim {

Device::Device(uint32_t index, const DeviceClock &clock, CaptureRegistry &captures,
               LabelTable &labels, double dma_gbps)
    : index_(index), clock_(clock), captures_(captures), dma_bytes_per_ns_(dma_gbps),
      label_h2d_(labels.intern("Memcpy HtoD", PROF_CATEGORY_MEMCPY_HTOD)),
      label_d2h_(labels.intern("Memcpy DtoH", PROF_CATEGORY_MEMCPY_DTOH)),
      label_d2d_(labels.intern("Memcpy DtoD", PROF_CATEGORY_MEMCPY_DTOD)),
      label_memset_(labels.intern("Memset", PROF_CATEGORY_MEMSET)) {}

void Device::emit_activity(EngineInstance where, uint32_t activity, uint64_t start_ns,
                           uint64_t end_ns, uint32_t label, uint64_t bytes,
                           const WorkOrigin &origin) {
  if (!captures_.active()) return;
  prof_gcu_record record{};
  record.kind = PROF_GCU_RECORD_ACTIVITY;
  record.device = static_cast<uint16_t>(index_);
  record.group = engine_group(where.engine);
  record.group_index = static_cast<uint16_t>(where.group_index);
  record.engine = where.engine;
  record.engine_index = static_cast<uint16_t>(where.engine_index);
  record.item = activity;
  record.label = label;
  record.stream = origin.stream;
  record.start = clock_.ticks_at(start_ns);
  record.end = clock_.ticks_at(end_ns);
  record.correlation_id = origin.correlation_id;
  record.op_id = origin.op_id;
  record.bytes = bytes;
  captures_.emit(record);
}

bool Device::record_memory(const BlockChange &change, uint64_t correlation_id) {
  if (!captures_.active()) return false;
  prof_gcu_memory_record memory{};
  memory.kind = PROF_GCU_RECORD_MEMORY;
  memory.device = static_cast<uint16_t>(index_);
  memory.group = engine_group(kGeneral);
  memory.engine = kGeneral;
  memory.item = kMemory;
  memory.operation = static_cast<uint16_t>(change.operation);
  memory.memory = static_cast<uint16_t>(change.memory);
  memory.timestamp = clock_.ticks_at(host_now_ns());
  memory.correlation_id = correlation_id;
  memory.address = change.address;
  memory.bytes = change.bytes;
  static_assert(sizeof memory == sizeof(prof_gcu_record));
  prof_gcu_record record;
  std::memcpy(&record, &memory, sizeof record);
  return captures_.emit(record);
}

void Device::emit_counter(EngineInstance where, uint32_t event, uint64_t start_ticks,
                          uint64_t end_ticks, uint64_t value, const WorkOrigin &origin) {
  if (!captures_.active()) return;
  prof_gcu_record record{};
  record.kind = PROF_GCU_RECORD_COUNTER;
  record.device = static_cast<uint16_t>(index_);
  record.group = engine_group(where.engine);
  record.group_index = static_cast<uint16_t>(where.group_index);
  record.engine = where.engine;
  record.engine_index = static_cast<uint16_t>(where.engine_index);
  record.item = event;
  record.stream = origin.stream;
  record.start = start_ticks;
  record.end = end_ticks;
  record.correlation_id = origin.correlation_id;
  record.op_id = origin.op_id;
  record.value = value;
  captures_.emit(record);
}

void Device::record_ts(TsActivity activity, uint64_t start_ns, uint64_t end_ns,
                       const WorkOrigin &origin) {
  emit_activity({kTs, 0, 0}, activity, start_ns, end_ns, 0, 0, origin);
}

void Device::wait_for_bandwidth(uint64_t start_ns, size_t bytes) const {
  uint64_t deadline =
      start_ns + static_cast<uint64_t>(static_cast<double>(bytes) / dma_bytes_per_ns_);
  timespec until{static_cast<time_t>(deadline / 1000000000u),
                 static_cast<long>(deadline % 1000000000u)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, nullptr) == EINTR) {
  }
}

int Device::busy_ticks(int32_t group, uint32_t group_index, uint64_t &busy, uint32_t &units) const {
  auto cluster_sum = [&](uint32_t cluster) {
    uint64_t sum = 0;
    for (const auto &sip : sip_busy_[cluster])
      sum += sip.load(std::memory_order_relaxed);
    return sum;
  };
  if (group == kDeviceLevel) {
    busy = 0;
    for (uint32_t c = 0; c < kClusterCount; ++c)
      busy += cluster_sum(c);
    for (const auto &lite : sip_lite_busy_)
      busy += lite.load(std::memory_order_relaxed);
    units = kClusterCount * kSipsPerCluster + kClusterLiteCount;
    return 0;
  }
  if (group == kCluster && group_index < kClusterCount) {
    busy = cluster_sum(group_index);
    units = kSipsPerCluster;
    return 0;
  }
  if (group == kClusterLite && group_index < kClusterLiteCount) {
    busy = sip_lite_busy_[group_index].load(std::memory_order_relaxed);
    units = 1;
    return 0;
  }
  return -1;
}

} // namespace prof::gcusim
