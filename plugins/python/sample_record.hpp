// One CPU sample as the signal handler writes it: the interrupted thread's
// native return addresses and its Python frames, names left for later.
#ifndef PROF_PLUGINS_PYTHON_SAMPLE_RECORD_HPP
#define PROF_PLUGINS_PYTHON_SAMPLE_RECORD_HPP

#include <prof/python/frame_walk.hpp>

#include <cstdint>

namespace prof::python {

inline constexpr int kMaxNativeFrames = 128;
inline constexpr int kMaxPythonFrames = 128;

struct SampleRecord {
  uint64_t time; ///< CLOCK_MONOTONIC nanoseconds
  int32_t tid;   ///< the sampled thread (its slot may be another's by the time it is read)
  uint16_t native_count;
  uint16_t python_count;
  bool python_truncated; ///< more Python frames than kMaxPythonFrames
  /// Leaf first; the first is the interrupted instruction plus one, so that
  /// every entry reads as a return address.
  uintptr_t native[kMaxNativeFrames];
  PythonFrameRef python[kMaxPythonFrames]; ///< leaf first
};

} // namespace prof::python

#endif
