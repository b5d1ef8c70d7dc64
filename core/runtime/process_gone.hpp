// Whether a process has ended, for state left in shared memory by processes
// that may die holding it (ring owners, region locks).
#pragma once

#include <cerrno>
#include <csignal>
#include <cstdint>

namespace prof::core {

/// True when `pid` (or a thread id: kill() finds a thread by it) is known to
/// have exited (kill(pid, 0) says ESRCH); one prof may not signal counts as
/// alive.
inline bool process_gone(int32_t pid) { return pid > 0 && kill(pid, 0) != 0 && errno == ESRCH; }

} // namespace prof::core
