#include "tools/prof/cli/trace_items.hpp"

namespace prof::cli {
namespace {

constexpr TraceItem kItems[] = {
    {"gcu", "gcu", "a GCU (or gcusim) and plugin gcu"},
    {"osrt", "osrt", "plugin osrt"},
    {"nvtx", "nvtx", "plugin nvtx (NVTX annotations)"},
    {"hgtx", "nvtx", "plugin nvtx (HGTX is NVTX's spelling on a PPU)"},
    {"cuda", "cuda", "an NVIDIA GPU with CUPTI and plugin cuda"},
    {"hggc", "cuda", "a T-Head PPU or NVIDIA GPU with CUPTI and plugin cuda"},
    {"pccl", "pccl",
     "a collective library with the NCCL profiler-plugin interface and plugin pccl"},
    {"nccl", "pccl", "NCCL with its profiler-plugin interface and plugin pccl"},
    {"mpi", "mpi", "an MPI library and plugin mpi"},
    {"torch", "torch", "PyTorch and plugin torch (built with Debian's libtorch-dev)"},
    // Items whose source prof does not have.
    {"acdnn", "", "a T-Head PPU's ACDNN library, which prof has no source for"},
    {"acblas", "", "a T-Head PPU's ACBLAS library, which prof has no source for"},
    {"hgvideo", "", "a T-Head PPU's video engines, which prof has no source for"},
    {"cudnn", "", "NVIDIA cuDNN API tracing, which prof has no source for"},
    {"cublas", "", "NVIDIA cuBLAS API tracing, which prof has no source for"},
    {"ucx", "", "UCX tracing, which prof has no source for"},
    {"openmp", "", "OpenMP tracing, which prof has no source for"},
    {"opengl", "", "OpenGL tracing, which prof has no source for"},
    {"vulkan", "", "Vulkan tracing, which prof has no source for"},
};

} // namespace

std::span<const TraceItem> trace_items() { return kItems; }

const TraceItem *find_trace_item(std::string_view name) {
  for (const auto &item : kItems)
    if (item.name == name) return &item;
  return nullptr;
}

std::string supported_trace_items() {
  std::string text;
  for (const auto &item : kItems) {
    if (item.plugin.empty()) continue;
    text += (text.empty() ? "" : ", ") + std::string(item.name);
  }
  return text;
}

} // namespace prof::cli
