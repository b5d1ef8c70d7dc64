#include "device_clock.hpp"

#include "host_clock.hpp"

namespace prof::gcusim {

void DeviceClock::read_pair(uint64_t &host_ns, uint64_t &device_ticks) const noexcept {
  uint64_t before = host_now_ns();
  device_ticks = ticks_at(host_now_ns());
  uint64_t after = host_now_ns();
  host_ns = before + (after - before) / 2;
}

} // namespace prof::gcusim
