// The nvtx source inside the profiled application: while started, NVTX
// annotations go to its recorder.
#ifndef PROF_PLUGINS_NVTX_NVTX_SOURCE_HPP
#define PROF_PLUGINS_NVTX_NVTX_SOURCE_HPP

#include <prof/annotations/annotation_recorder.hpp>

#include <prof/plugin.hpp>

namespace prof::nvtx {

class NvtxSource {
public:
  explicit NvtxSource(Host host) : host_(host) {}
  ~NvtxSource();
  NvtxSource(const NvtxSource &) = delete;
  NvtxSource &operator=(const NvtxSource &) = delete;

  bool configure() { return true; }
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush() { return true; }
  /// The ranges open now on every thread, as unfinished slices (flight-recorder dumps).
  bool emit_unfinished(uint64_t now) {
    if (recording_) recorder_->emit_unfinished(now);
    return true;
  }

private:
  Host host_;
  /// Never freed: an application thread may still be inside it after stop().
  annotations::AnnotationRecorder *recorder_ = nullptr;
  bool started_ = false;
  bool recording_ = false; ///< started and not suspended
};

} // namespace prof::nvtx

#endif
