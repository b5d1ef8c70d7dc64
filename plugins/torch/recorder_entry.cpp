// The torch source's offer to its bridge (recorder_api.h): every call goes
// to the active recorder, and does nothing while none records.
#include "recorder_api.h"
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
  if (TorchRecorder *recorder = active_recorder())
    recorder->begin(*call, *open);
  else
    std::memset(open, 0, sizeof *open);
}

void end(prof_torch_open_call *open) {
  // A recorder replaced meanwhile stays allocated (set_active_recorder).
  if (TorchRecorder *recorder = active_recorder()) recorder->end(*open);
}

void name_group(const prof_torch_group *group) {
  if (TorchRecorder *recorder = active_recorder()) recorder->name_group(*group);
}

int knows_group(const void *group) {
  const TorchRecorder *recorder = active_recorder();
  return recorder == nullptr || recorder->knows_group(group);
}

void warn(const char *text) {
  if (TorchRecorder *recorder = active_recorder()) recorder->warn(text);
}

constexpr prof_torch_recorder_api kApi = {PROF_TORCH_RECORDER_VERSION,
                                          &recording,
                                          &wants_shapes,
                                          &begin,
                                          &end,
                                          &name_group,
                                          &knows_group,
                                          &warn};

} // namespace
} // namespace prof::torch

/// The torch source's offer to its bridge (recorder_api.h).
extern "C" __attribute__((visibility("default"))) const prof_torch_recorder_api *
prof_torch_recorder() {
  return &prof::torch::kApi;
}
