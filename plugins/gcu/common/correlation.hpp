// Correlation ids are unique per process; in the report they are made
// unique per capture by putting the process id above them.
#pragma once

#include <cstdint>

namespace prof::gcu {

inline constexpr unsigned kCorrelationBits = 40;

inline uint64_t session_correlation(int pid, uint64_t correlation) {
  if (correlation == 0) return 0;
  return (static_cast<uint64_t>(static_cast<uint32_t>(pid)) << kCorrelationBits) |
         (correlation & ((uint64_t{1} << kCorrelationBits) - 1));
}

/// The driver's own correlation id back from a session one.
inline uint64_t driver_correlation(uint64_t session_id) {
  return session_id & ((uint64_t{1} << kCorrelationBits) - 1);
}

} // namespace prof::gcu
