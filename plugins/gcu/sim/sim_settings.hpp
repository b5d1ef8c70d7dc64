// The model's knobs, read from the environment once, at first use.
#ifndef PROF_GCUSIM_SIM_SETTINGS_HPP
#define PROF_GCUSIM_SIM_SETTINGS_HPP

#include <cstdint>
#include <optional>

namespace prof::gcusim {

struct SimSettings {
  uint32_t device_count = 2;            ///< GCUSIM_DEVICES, 1..16
  double clock_hz = 1.25e9;             ///< GCUSIM_CLOCK_HZ
  std::optional<uint64_t> clock_offset; ///< GCUSIM_CLOCK_OFFSET; unset: 1e12 x (device + 1)
  double clock_drift_ppm = 25.0;        ///< GCUSIM_CLOCK_DRIFT_PPM, every device alike
  double dma_gbps = 16.0;               ///< GCUSIM_DMA_GBPS: copy bandwidth, GB/s
  uint32_t dma_interval_ms = 1;         ///< GCUSIM_DMA_INTERVAL_MS: device buffer drain period

  /// Reads the GCUSIM_* variables; an invalid one keeps its default and
  /// prints a one-line "gcusim: " warning on stderr.
  static SimSettings from_environment();
};

} // namespace prof::gcusim

#endif
