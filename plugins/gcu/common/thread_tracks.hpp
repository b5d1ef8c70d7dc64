// The calling thread's track, declared once per thread and host (and again
// in a forked child, whose thread ids differ).
#pragma once

#include <prof/plugin.hpp>

namespace prof::gcu {

/// The track of the calling thread in the calling process, 0 if it cannot be declared.
prof_track_id calling_thread_track(const Host &host);

} // namespace prof::gcu
