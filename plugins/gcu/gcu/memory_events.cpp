#include "memory_events.hpp"

#include <prof/correlation.hpp>

#include <prof/event.hpp>

#include <array>

namespace prof::gcu {

MemoryEvents::MemoryEvents(const Host &host, DeviceTracks &tracks, int pid)
    : host_(host), tracks_(tracks), pid_(pid), memory_category_(host.intern("Memory")),
      alloc_(host.intern("alloc")), free_(host.intern("free")), device_(host.intern("device")),
      pinned_(host.intern("pinned")), operation_key_(host.intern(PROF_MEMORY_ARG_OPERATION)),
      address_key_(host.intern(PROF_MEMORY_ARG_ADDRESS)),
      bytes_key_(host.intern(PROF_MEMORY_ARG_BYTES)),
      memory_key_(host.intern(PROF_MEMORY_ARG_MEMORY)),
      correlation_key_(host.intern(PROF_MEMORY_ARG_CORRELATION)) {}

void MemoryEvents::add(const prof_gcu_memory_record &r, prof_string_id category) {
  const bool alloc = r.operation == PROF_GCU_MEMORY_ALLOC;
  if (!alloc && r.operation != PROF_GCU_MEMORY_FREE) return;
  const prof_track_id row = tracks_.memory(r.device);
  if (row == 0) return;
  const prof_string_id operation = alloc ? alloc_ : free_;
  std::array<prof_arg, 5> args{arg_string(operation_key_, operation),
                               arg_uint(address_key_, r.address), arg_uint(bytes_key_, r.bytes)};
  size_t count = 3;
  if (r.memory == PROF_GCU_MEMORY_DEVICE || r.memory == PROF_GCU_MEMORY_PINNED)
    args[count++] = arg_string(memory_key_, r.memory == PROF_GCU_MEMORY_DEVICE ? device_ : pinned_);
  if (const uint64_t correlation = session_correlation(pid_, r.correlation_id); correlation != 0)
    args[count++] = arg_uint(correlation_key_, correlation);
  // Under the lock, so the counter's values come out in the records' order.
  std::lock_guard lock(mutex_);
  host_.instant(row, r.timestamp, operation, category != 0 ? category : memory_category_,
                PROF_CATEGORY_MEMORY, std::span<const prof_arg>(args.data(), count));
  if (r.memory != PROF_GCU_MEMORY_DEVICE) return; // pinned memory is not the device's
  if (const auto used = usage_.follow(r.device, alloc, r.address, r.bytes))
    host_.counter(tracks_.memory_used(r.device), r.timestamp, static_cast<double>(*used));
}

} // namespace prof::gcu
