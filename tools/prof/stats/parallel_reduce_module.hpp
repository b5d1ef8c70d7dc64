// libprof-parallel-reduce, loaded when a scan first needs it: prof does not
// link TBB, so that commands other than `prof stats` never load it.
#pragma once

#include "tools/parallel-reduce/parallel_reduce.h"

namespace prof::tool {

/// prof_parallel_reduce of lib/prof/libprof-parallel-reduce.so beside the
/// executable (or PROF_PARALLEL_REDUCE_PATH), loaded once; throws
/// std::runtime_error naming the file when it cannot be loaded.
decltype(&prof_parallel_reduce) parallel_reduce_function();

} // namespace prof::tool
