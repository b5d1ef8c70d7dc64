// Reads of this process's memory that fail where it is not mapped instead of
// faulting (process_vm_readv on itself): for objects that may be gone, and
// pointers that may be garbage. Safe in a signal handler.
#ifndef PROF_PYTHON_CHECKED_READ_HPP
#define PROF_PYTHON_CHECKED_READ_HPP

#include <cstddef>
#include <cstdint>

namespace prof::python {

/// Copies `size` bytes at `address`; false where any of them is unmapped.
bool read_memory(uintptr_t address, void *out, std::size_t size) noexcept;

} // namespace prof::python

#endif
