// The unit prof's shared region is laid out in: 4 KiB whatever the system's
// page size, so that every process that maps a region reads one layout.
#pragma once

#include <cstdint>

namespace prof::core {

inline constexpr uint64_t kLayoutPage = 4096;

/// `bytes` rounded up to a whole layout page.
constexpr uint64_t layout_page_round(uint64_t bytes) {
  return (bytes + kLayoutPage - 1) & ~(kLayoutPage - 1);
}

} // namespace prof::core
