// The torch source's offer to its bridge (recorder_api.h): every call goes
// to the active recorder; while none records, only a process group's
// operations are counted, so that sequences match whenever windows open.
#include "process_groups.hpp"
#include "recorder_api.h"
#include "tensor_blocks.hpp"
#include "torch_recorder.hpp"

#include <cstring>

namespace prof::torch {
namespace {

int recording() { return active_recorder() != nullptr; }

int wants_shapes() {
  const TorchRecorder *recorder = active_recorder();
  return recorder != nullptr && recorder->wants_shapes();
}

void begin(const prof_torch_call *call, prof_torch_open_call *open) {
  if (TorchRecorder *recorder = active_recorder()) {
    recorder->begin(*call, *open);
    return;
  }
  std::memset(open, 0, sizeof *open);
  // Not recording: a group's operations are counted all the same.
  if (call->group != nullptr)
    process_groups().issue(call->group, collective_operation(call->name), 0, 0, 0, false,
                           call->group_sequence);
}

void end(prof_torch_open_call *open) {
  // A recorder replaced meanwhile stays allocated (set_active_recorder).
  if (TorchRecorder *recorder = active_recorder()) recorder->end(*open);
}

void name_group_entry(const prof_torch_group *group) { name_group(*group); }

int knows_group(const void *group) { return process_groups().knows(group); }

void warn(const char *text) {
  if (TorchRecorder *recorder = active_recorder()) recorder->warn(text);
}

int wants_memory() {
  const TorchRecorder *recorder = active_recorder();
  return recorder != nullptr && recorder->wants_memory();
}

void allocated(const void *address, uint64_t bytes) {
  TorchRecorder *recorder = active_recorder();
  if (recorder == nullptr || !recorder->wants_memory()) return;
  const auto at = reinterpret_cast<uintptr_t>(address);
  recorder->memory(at, bytes, false, tensor_blocks().add(at, bytes));
}

void freed(const void *address) {
  // Taken from the table whoever records now, so that it never grows stale.
  const auto at = reinterpret_cast<uintptr_t>(address);
  const auto bytes = tensor_blocks().take(at);
  if (!bytes) return;
  TorchRecorder *recorder = active_recorder();
  if (recorder != nullptr && recorder->wants_memory())
    recorder->memory(at, *bytes, true, tensor_blocks().live());
}

constexpr prof_torch_recorder_api kApi = {PROF_TORCH_RECORDER_VERSION,
                                          &recording,
                                          &wants_shapes,
                                          &begin,
                                          &end,
                                          &name_group_entry,
                                          &knows_group,
                                          &warn,
                                          &wants_memory,
                                          &allocated,
                                          &freed};

} // namespace
} // namespace prof::torch

/// The torch source's offer to its bridge (recorder_api.h).
extern "C" __attribute__((visibility("default"))) const prof_torch_recorder_api *
prof_torch_recorder() {
  return &prof::torch::kApi;
}
