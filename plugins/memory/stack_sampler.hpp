// Which allocations carry a call stack: a sample by bytes, as tcmalloc's and
// Go's heap profilers take it. Each thread counts the bytes it allocates
// down from a distance drawn from an exponential distribution of mean
// `period`; the allocation that reaches zero is sampled, and the next
// distance is drawn from its end. A block of s bytes is so sampled with
// probability p = 1 - exp(-s/period), whatever came before it, and stands
// for s/p bytes: summed over a stack's sampled blocks, an unbiased estimate
// of the bytes it holds, with variance sum(s^2 (1-p)/p^2) over them (for
// blocks far smaller than the period, about bytes x period: the standard
// error of 100 MiB sampled every 512 KiB is 7%).
#ifndef PROF_PLUGINS_MEMORY_STACK_SAMPLER_HPP
#define PROF_PLUGINS_MEMORY_STACK_SAMPLER_HPP

#include "raw_stack_table.hpp"

#include <prof/python/python_runtime.hpp>

#include <cstdint>

namespace prof::memory {

/// Stacks of sampled allocations, every thread's.
RawStackTable &sampled_stacks();

/// Starts sampling every `period_bytes` on average (0: no stacks), with
/// the Python frames of `python` (nullptr: native frames only; it must
/// outlive the sampling).
void start_stack_sampling(uint64_t period_bytes, const python::PythonRuntime *python);
/// Stops taking stacks; those taken stay.
void stop_stack_sampling();
uint64_t stack_sampling_period();

/// For an allocation of `size` bytes the calling thread made from return
/// address `site`: the id of its stack in sampled_stacks() when it is
/// sampled, else 0. Called from inside the allocation hooks, not counted.
uint32_t sample_stack(uint64_t size, uintptr_t site) noexcept;

/// What a sampled block of `size` bytes stands for when sampling every
/// `period` bytes, and the variance of that estimate.
double sampled_weight(uint64_t size, uint64_t period) noexcept;
double sampled_variance(uint64_t size, uint64_t period) noexcept;

} // namespace prof::memory

#endif
