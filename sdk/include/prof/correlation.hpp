// Correlation ids are unique per process (a runtime counts its API calls);
// in the report they are made unique per capture by putting the process id
// above them. Every source that ties calls to device work uses this one
// scheme, so ids from several processes and sources never collide.
#ifndef PROF_CORRELATION_HPP
#define PROF_CORRELATION_HPP

#include <cstdint>

namespace prof {

/// Bits of a session correlation id that hold the process's own id.
inline constexpr unsigned kCorrelationBits = 40;

/// The session-wide id of process `pid`'s correlation id; 0 stays 0 (none).
inline uint64_t session_correlation(int pid, uint64_t correlation) {
  if (correlation == 0) return 0;
  return (static_cast<uint64_t>(static_cast<uint32_t>(pid)) << kCorrelationBits) |
         (correlation & ((uint64_t{1} << kCorrelationBits) - 1));
}

/// The process's own correlation id back from a session one.
inline uint64_t local_correlation(uint64_t session_id) {
  return session_id & ((uint64_t{1} << kCorrelationBits) - 1);
}

} // namespace prof

#endif
