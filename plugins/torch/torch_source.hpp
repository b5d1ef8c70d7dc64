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

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"operators", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "every operator call (aten and custom, forward and backward) as an operator slice on its "
     "thread, with flows from forward operators to their backward nodes"},
    {"shapes", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "operators carry their inputs' shapes and types (--pytorch=autograd-shapes-nvtx)"},
    {"collectives", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "process-group operations (DDP's and FSDP's too) as communication slices with bytes, dtype, "
     "backend, group and a sequence per group that matches across ranks"},
    {"ranges", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "torch's user ranges (record_function, DDP.forward, Optimizer.step#SGD.step) as annotation "
     "slices"},
    {"memory", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "the blocks PyTorch's CPU allocator gives and takes back, as memory events and the "
     "\"Tensor memory\" counter, and the bytes each operator kept (--memory-profile)"},
    {"steps", PROF_OPTION_STRING, "auto", 0, 0, nullptr,
     "what a training step is: auto (torch.profiler's ProfilerStep#N, else from one optimizer "
     "step's end to the next's), none, or the name of the record_function range that is one"},
};

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
