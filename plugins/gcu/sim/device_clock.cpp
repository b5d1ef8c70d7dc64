#include "device_clock.hpp"

#include "host_clock.hpp"

#include <cstdint>

namespace prof::gcusim {

void DeviceClock::read_pair(uint64_t &host_ns, uint64_t &device_ticks) const noexcept {
  // The device clock is read between two host reads, as a driver reads a
  // device register; a read the scheduler interrupted brackets it loosely,
  // so the narrowest of a few tries is kept (like a driver's retry).
  uint64_t best_width = UINT64_MAX;
  for (int attempt = 0; attempt < 8 && best_width > 20000; ++attempt) {
    const uint64_t before = host_now_ns();
    const uint64_t ticks = ticks_at(host_now_ns());
    const uint64_t after = host_now_ns();
    if (after - before < best_width) {
      best_width = after - before;
      host_ns = before + (after - before) / 2;
      device_ticks = ticks;
    }
  }
}

} // namespace prof::gcusim
