// Marks the runtime API's definitions as exported from libgcusim.so (the
// library is built with hidden visibility).
#ifndef PROF_GCUSIM_RUNTIME_EXPORT_HPP
#define PROF_GCUSIM_RUNTIME_EXPORT_HPP

#define GCUSIM_EXPORT extern "C" __attribute__((visibility("default")))

#endif
