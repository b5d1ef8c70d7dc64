#include "simulator.hpp"

#include "host_clock.hpp"

namespace prof::gcusim {

Simulator &Simulator::instance() {
  static Simulator *simulator = new Simulator(); // leaked on purpose, see the header
  return *simulator;
}

Simulator::Simulator()
    : settings_(SimSettings::from_environment()), topology_(build_topology(settings_.device_count)),
      slots_(topology_), captures_(topology_, slots_, settings_.dma_interval_ms) {
  uint64_t t0 = host_now_ns();
  for (uint32_t d = 0; d < settings_.device_count; ++d) {
    uint64_t offset = settings_.clock_offset.value_or(1000000000000ull * (d + 1));
    DeviceClock clock(t0, offset, settings_.clock_hz, settings_.clock_drift_ppm);
    devices_.push_back(std::make_unique<Device>(d, clock, captures_, labels_, settings_.dma_gbps));
  }
}

} // namespace prof::gcusim
