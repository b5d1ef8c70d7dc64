// CRC32C (Castagnoli), the checksum of every .profrep chunk.
#pragma once

#include <cstddef>
#include <cstdint>

namespace prof::report {

/// Extends a finished CRC32C value `crc` (0 to start) over `size` bytes.
/// Uses the SSE4.2 instruction when the CPU has it, else slicing-by-8.
uint32_t crc32c_extend(uint32_t crc, const void *data, size_t size);

/// The table-driven implementation, always available (and tested against the other).
uint32_t crc32c_extend_portable(uint32_t crc, const void *data, size_t size);

/// True when crc32c_extend runs on the CPU's CRC32 instruction.
bool crc32c_uses_hardware();

inline uint32_t crc32c(const void *data, size_t size) { return crc32c_extend(0, data, size); }

} // namespace prof::report
