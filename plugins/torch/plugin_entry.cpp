// ABI glue of the torch source: option table, vtable and entry symbol.
// Reading the descriptor has no side effects.
#include "torch_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_option_desc kOptions[] = {
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

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::source_descriptor<prof::torch::TorchSource>(
      "torch", "1.0.0",
      "PyTorch from the inside: operators (forward, backward, with shapes on request), autograd "
      "flows, user ranges, training steps and process-group collectives of every Python process "
      "that imports torch",
      PROF_SCOPE_PROCESS, kOptions, "prof project");
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
