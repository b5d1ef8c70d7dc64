// The torch source (process scope): PyTorch seen from the inside. prof
// preloads it into the application and its children; it makes their Python
// programs run prof_torch at start-up (python/prof_torch.py), which, once
// the program imports torch, loads the bridge _prof_torch (built against
// libtorch) and names the process groups; the bridge registers PyTorch's
// RecordFunction callbacks and hands each call to the TorchRecorder.
#ifndef PROF_PLUGINS_TORCH_TORCH_SOURCE_HPP
#define PROF_PLUGINS_TORCH_TORCH_SOURCE_HPP

#include "torch_recorder.hpp"

#include <prof/plugin.hpp>

namespace prof::torch {

class TorchSource {
public:
  explicit TorchSource(Host host) : host_(host) {}
  ~TorchSource() { stop(); }
  TorchSource(const TorchSource &) = delete;
  TorchSource &operator=(const TorchSource &) = delete;

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  /// At a flight recorder's dump: the backend collectives running now.
  bool emit_unfinished(uint64_t now);
  bool flush() { return true; }

private:
  Host host_;
  RecorderOptions options_;
  /// Lasting: a thread may still be inside it after stop.
  TorchRecorder *recorder_ = nullptr;
  bool started_ = false;
};

} // namespace prof::torch

#endif
