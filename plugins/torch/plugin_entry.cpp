// ABI glue of the torch source: descriptor (its option table is in the header) and entry symbol.
// Reading the descriptor has no side effects.
#include "torch_source.hpp"

#include <prof/plugin.hpp>

namespace {

constexpr prof_plugin_descriptor kDescriptor = [] {
  prof_plugin_descriptor d = prof::source_descriptor<prof::torch::TorchSource>(
      "torch", "1.0.0",
      "PyTorch from the inside: operators (forward, backward, with shapes on request), autograd "
      "flows, user ranges, training steps and process-group collectives of every Python process "
      "that imports torch",
      PROF_SCOPE_PROCESS, prof::torch::kOptions, "prof project");
  return d;
}();

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
