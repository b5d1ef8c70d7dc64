// The calling thread's return addresses, from the unwinder (DWARF call frame
// information through libgcc), for process-scope plugins that take a call
// stack on an application thread: osrt's slow calls, the memory source's
// sampled allocations.
#ifndef PROF_STACKS_RETURN_ADDRESSES_HPP
#define PROF_STACKS_RETURN_ADDRESSES_HPP

#include <cstdint>

namespace prof::stacks {

/// Return addresses of the calling thread, innermost first (the first is in
/// this function); returns their number, at most `capacity`. Allocates
/// nothing once warmed up by a first call.
int capture_return_addresses(uintptr_t *addresses, int capacity) noexcept;

} // namespace prof::stacks

#endif
