#include <prof/python/frame_walk.hpp>

#include <prof/python/checked_read.hpp>

#include <cstring>

namespace prof::python {
namespace {

template <typename T> T load(uintptr_t address, int offset) noexcept {
  T value;
  std::memcpy(&value, reinterpret_cast<const void *>(address + offset), sizeof value);
  return value;
}

// Frames past this many are a cycle or a misread, not a program.
constexpr int kMaxChain = 4096;

// Whether `frame` lies among the thread's live frames on its data stack:
// chunks linked from the thread state, each used up to its saved top, the
// newest up to the thread's top.
bool on_live_data_stack(const InterpreterLayout &layout, uintptr_t tstate, uintptr_t frame) {
  const auto top = load<uintptr_t>(tstate, layout.tstate_datastack_top);
  auto chunk = load<uintptr_t>(tstate, layout.tstate_datastack_chunk);
  for (int i = 0; i < 64 && chunk != 0; ++i) {
    const uintptr_t data = chunk + kChunkData;
    const uintptr_t end = i == 0 ? top : data + load<uint64_t>(chunk, kChunkTop) * sizeof(void *);
    if (frame >= data && frame + kFrameHeader <= end) return true;
    chunk = load<uintptr_t>(chunk, kChunkPrevious);
  }
  return false;
}

// Whether the innermost frame pointer can be followed. It alone may be
// stale: an evaluation-loop call publishes its _PyCFrame before setting the
// frame in it. A frame off the data stack (a generator's, a C-stack shim) is
// read through the kernel first; every frame after a sound one is sound.
bool sound_first_frame(const PythonRuntime &runtime, uintptr_t tstate, uintptr_t frame) {
  const InterpreterLayout &layout = *runtime.layout;
  if (frame == 0 || frame % alignof(void *) != 0) return false;
  if (on_live_data_stack(layout, tstate, frame)) return true;
  uint8_t header[kFrameHeader];
  if (!read_memory(frame, header, sizeof header)) return false;
  if (layout.owned_by_c_stack >= 0 && header[layout.frame_owner] == layout.owned_by_c_stack)
    return true;
  uintptr_t code = 0, type = 0;
  std::memcpy(&code, header + layout.frame_code, sizeof code);
  return read_memory(code + kObjectType, &type, sizeof type) && type == runtime.code_type;
}

constexpr PythonFrameRef kEmptyGroup{0, 0, 0, 0, true};

/// The innermost frame; `*entering` when the innermost loop call has none yet.
uintptr_t innermost_frame(const PythonRuntime &runtime, uintptr_t tstate, bool *entering) {
  const InterpreterLayout &layout = *runtime.layout;
  *entering = false;
  if (layout.tstate_cframe < 0) {
    const auto frame = load<uintptr_t>(tstate, layout.tstate_current_frame);
    return sound_first_frame(runtime, tstate, frame) ? frame : 0;
  }
  auto cframe = load<uintptr_t>(tstate, layout.tstate_cframe);
  // Caught between publishing a _PyCFrame and filling it: its caller's frame.
  for (int i = 0; i < 2 && cframe != 0; ++i) {
    const auto frame = load<uintptr_t>(cframe, layout.cframe_current_frame);
    if (sound_first_frame(runtime, tstate, frame)) {
      *entering = i > 0;
      return frame;
    }
    cframe = load<uintptr_t>(cframe, layout.cframe_previous);
  }
  return 0;
}

} // namespace

int walk_python_frames(const PythonRuntime &runtime, PythonFrameRef *out, int capacity,
                       bool *truncated) noexcept {
  *truncated = false;
  const auto tstate = reinterpret_cast<uintptr_t>(runtime.this_thread_state());
  if (tstate == 0) return 0;
  const InterpreterLayout &layout = *runtime.layout;
  bool entering = false;
  uintptr_t frame = innermost_frame(runtime, tstate, &entering);
  int count = 0;
  if (entering && capacity > 0) out[count++] = kEmptyGroup;
  for (int seen = 0; frame != 0 && seen < kMaxChain; ++seen) {
    const auto previous = load<uintptr_t>(frame, layout.frame_previous);
    const auto owner = load<uint8_t>(frame, layout.frame_owner);
    if (layout.owned_by_c_stack >= 0 && owner == layout.owned_by_c_stack) {
      // The shim an evaluation-loop call pushes: the frames above were its
      // own; none when it has just unlinked the frame it ran.
      if (count > 0 && !out[count - 1].last_of_group) {
        out[count - 1].last_of_group = true;
      } else if (count < capacity) {
        out[count++] = kEmptyGroup;
      }
      frame = previous;
      continue;
    }
    const auto code = load<uintptr_t>(frame, layout.frame_code);
    if (code != 0 && load<uintptr_t>(code, kObjectType) == runtime.code_type) {
      if (count == capacity) {
        *truncated = true;
        break;
      }
      const auto instruction = load<uintptr_t>(frame, layout.frame_instruction);
      const auto units = static_cast<intptr_t>(code + layout.code_units);
      PythonFrameRef &ref = out[count++];
      ref.code = code;
      ref.qualname = load<uintptr_t>(code, layout.code_qualname);
      ref.first_line = load<int32_t>(code, layout.code_first_line);
      ref.instruction = static_cast<int32_t>((static_cast<intptr_t>(instruction) - units) / 2);
      ref.last_of_group =
          layout.frame_is_entry >= 0 && load<uint8_t>(frame, layout.frame_is_entry) != 0;
    }
    frame = previous;
  }
  return count;
}

} // namespace prof::python
