#include "sim_settings.hpp"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace prof::gcusim {
namespace {

/// The variable's value as a finite number, or nullopt (with a warning) when
/// it is set but not a number within [min, max].
std::optional<double> read_number(const char *name, double min, double max, const char *range,
                                  bool whole = false) {
  const char *text = std::getenv(name);
  if (text == nullptr || *text == '\0') return std::nullopt;
  char *end = nullptr;
  errno = 0;
  double value = std::strtod(text, &end);
  if (errno != 0 || end == text || *end != '\0' || !std::isfinite(value) || value < min ||
      value > max || (whole && std::floor(value) != value)) {
    std::fprintf(stderr, "gcusim: %s=%s is not %s; using the default\n", name, text, range);
    return std::nullopt;
  }
  return value;
}

} // namespace

SimSettings SimSettings::from_environment() {
  SimSettings settings;
  if (auto devices = read_number("GCUSIM_DEVICES", 1, 16, "a whole number from 1 to 16", true))
    settings.device_count = static_cast<uint32_t>(*devices);
  if (auto hz = read_number("GCUSIM_CLOCK_HZ", 1e3, 1e12, "a frequency from 1e3 to 1e12 Hz"))
    settings.clock_hz = *hz;
  if (auto offset = read_number("GCUSIM_CLOCK_OFFSET", 0, 9e18, "a tick count from 0 to 9e18"))
    settings.clock_offset = static_cast<uint64_t>(*offset);
  if (auto drift = read_number("GCUSIM_CLOCK_DRIFT_PPM", -1e5, 1e5, "a ppm value within +-1e5"))
    settings.clock_drift_ppm = *drift;
  if (auto gbps = read_number("GCUSIM_DMA_GBPS", 1e-3, 1e4, "a bandwidth from 0.001 to 1e4 GB/s"))
    settings.dma_gbps = *gbps;
  if (auto interval = read_number("GCUSIM_DMA_INTERVAL_MS", 1, 3.6e6,
                                  "a whole number of ms from 1 to 3600000", true))
    settings.dma_interval_ms = static_cast<uint32_t>(*interval);
  return settings;
}

} // namespace prof::gcusim
