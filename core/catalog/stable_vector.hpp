// A vector whose elements never move as it grows and that readers may index
// while one writer appends: the catalog's tables. TBB's concurrent_vector on
// the standard allocator: TBB's own allocator would load libtbbmalloc as a
// capture starts (about 1 ms of prof's start-up on a VM), for segments that
// are allocated a few times per capture.
#pragma once

#include <tbb/concurrent_vector.h>

#include <memory>

namespace prof::core {

template <typename T> using StableVector = tbb::concurrent_vector<T, std::allocator<T>>;

} // namespace prof::core
