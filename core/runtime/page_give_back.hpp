// Giving memory prof has read back to the kernel, a whole page at a time.
#pragma once

#include <cstdint>

namespace prof::core {

/// The system's page size.
uintptr_t page_bytes();

/// Gives back the whole pages inside [begin, end) (MADV_DONTNEED): private
/// memory then reads as zeros, a shared mapping reads its contents again.
/// Returns the end of what went back, or 0 when nothing did.
uintptr_t give_back_whole_pages(uintptr_t begin, uintptr_t end);

} // namespace prof::core
