#include <prof/python/frame_walk.hpp>

#include <prof/python/checked_read.hpp>

#include <algorithm>
#include <cstring>

namespace prof::python {
namespace {

template <typename T> T load(uintptr_t address, int offset) noexcept {
  T value;
  std::memcpy(&value, reinterpret_cast<const void *>(address + offset), sizeof value);
  return value;
}

template <typename T> T field(const uint8_t *bytes, int offset) noexcept {
  T value;
  std::memcpy(&value, bytes + offset, sizeof value);
  return value;
}

// A chain past this many frames and shims, or one that comes back to a frame
// it passed (the thread caught relinking a generator's frame), is not read
// further; nor past this many reads through the kernel. A handler that took
// longer than the sampling period would be running again at once.
constexpr int kMaxChain = 256;
constexpr int kMaxKernelReads = 48;
// The code object's fields read: up to its qualname, the last of them.
constexpr int kCodeHead = 136;

constexpr PythonFrameRef kEmptyGroup{0, 0, 0, 0, true};

// The thread's live frames on its data stack: chunks linked from the thread
// state, each used up to its saved top, the newest up to the thread's top.
// A frame there is live, and so is its code object (the frame holds it).
// Anything else (a generator's frame, a C-stack shim, or a pointer gone
// stale while the thread was interrupted) is read through the kernel,
// which fails instead of faulting.
class LiveFrames {
public:
  LiveFrames(const InterpreterLayout &layout, uintptr_t tstate) noexcept {
    const auto top = load<uintptr_t>(tstate, layout.tstate_datastack_top);
    auto chunk = load<uintptr_t>(tstate, layout.tstate_datastack_chunk);
    for (; count_ < kMaxChunks && chunk != 0; ++count_) {
      const uintptr_t data = chunk + kChunkData;
      ranges_[count_][0] = data;
      ranges_[count_][1] =
          count_ == 0 ? top : data + load<uint64_t>(chunk, kChunkTop) * sizeof(void *);
      chunk = load<uintptr_t>(chunk, kChunkPrevious);
    }
  }
  bool holds(uintptr_t frame) const noexcept {
    for (int i = 0; i < count_; ++i)
      if (frame >= ranges_[i][0] && frame + kFrameHeader <= ranges_[i][1]) return true;
    return false;
  }

private:
  static constexpr int kMaxChunks = 32;
  uintptr_t ranges_[kMaxChunks][2] = {};
  int count_ = 0;
};

// Copies `size` bytes at `address`: plainly where `live`, else through the
// kernel while `*budget` lasts.
bool copy(uintptr_t address, bool live, uint8_t *out, std::size_t size, int *budget) noexcept {
  if (address == 0 || address % alignof(void *) != 0) return false;
  if (!live) return --*budget >= 0 && read_memory(address, out, size);
  std::memcpy(out, reinterpret_cast<const void *>(address), size);
  return true;
}

// A frame as read: its header, and its code object's head unless a shim.
struct FrameCopy {
  uint8_t header[kFrameHeader];
  uint8_t code[kCodeHead];
  bool shim = false;
  bool has_code = false;
};

bool read_frame(const PythonRuntime &runtime, const LiveFrames &live, uintptr_t frame,
                FrameCopy &out, int *budget) noexcept {
  const InterpreterLayout &layout = *runtime.layout;
  const bool on_stack = live.holds(frame);
  if (!copy(frame, on_stack, out.header, kFrameHeader, budget)) return false;
  out.shim = layout.owned_by_c_stack >= 0 &&
             out.header[layout.frame_owner] == static_cast<uint8_t>(layout.owned_by_c_stack);
  out.has_code = false;
  if (out.shim) return true;
  // A 3.13 frame may run an object that is no code object, and a small one
  // may end where its mapping ends: read plainly, its type first; through
  // the kernel, at once (a short read fails).
  const auto code = field<uintptr_t>(out.header, layout.frame_code);
  if (on_stack)
    out.has_code = copy(code, true, out.code, kObjectType + sizeof(uintptr_t), budget) &&
                   field<uintptr_t>(out.code, kObjectType) == runtime.code_type &&
                   copy(code, true, out.code, kCodeHead, budget);
  else
    out.has_code = copy(code, false, out.code, kCodeHead, budget) &&
                   field<uintptr_t>(out.code, kObjectType) == runtime.code_type;
  return true;
}

// The innermost frame, read. It alone may be stale through no fault of the
// reader: an evaluation-loop call publishes its _PyCFrame before setting the
// frame in it; then the caller's frame comes first, after an empty group.
uintptr_t innermost_frame(const PythonRuntime &runtime, uintptr_t tstate, const LiveFrames &live,
                          FrameCopy &first, bool *entering, int *budget) {
  const InterpreterLayout &layout = *runtime.layout;
  *entering = false;
  if (layout.tstate_cframe < 0) {
    const auto frame = load<uintptr_t>(tstate, layout.tstate_current_frame);
    return read_frame(runtime, live, frame, first, budget) && (first.shim || first.has_code) ? frame
                                                                                             : 0;
  }
  // The thread state's _PyCFrame is always one of the thread's (on its C
  // stack, or the root one); its fields, and the one it points back to, may
  // not be written yet (the compiler orders those stores as it likes).
  const auto cframe = load<uintptr_t>(tstate, layout.tstate_cframe);
  if (cframe == 0) return 0;
  const auto frame = load<uintptr_t>(cframe, layout.cframe_current_frame);
  if (read_frame(runtime, live, frame, first, budget) && (first.shim || first.has_code))
    return frame;
  uintptr_t caller = 0, caller_frame = 0;
  if (!read_memory(cframe + layout.cframe_previous, &caller, sizeof caller) || caller == 0 ||
      !read_memory(caller + layout.cframe_current_frame, &caller_frame, sizeof caller_frame))
    return 0;
  if (!read_frame(runtime, live, caller_frame, first, budget) || !(first.shim || first.has_code))
    return 0;
  *entering = true;
  return caller_frame;
}

} // namespace

int walk_python_frames(const PythonRuntime &runtime, PythonFrameRef *out, int capacity,
                       bool *truncated) noexcept {
  *truncated = false;
  const auto tstate = reinterpret_cast<uintptr_t>(runtime.this_thread_state());
  if (tstate == 0) return 0;
  const InterpreterLayout &layout = *runtime.layout;
  const LiveFrames live(layout, tstate);
  FrameCopy copy;
  int budget = kMaxKernelReads;
  bool entering = false;
  uintptr_t frame = innermost_frame(runtime, tstate, live, copy, &entering, &budget);
  int count = 0;
  if (frame != 0 && entering && capacity > 0) out[count++] = kEmptyGroup;
  uintptr_t passed[kMaxChain];
  for (int seen = 0; frame != 0; ++seen) {
    if (seen == kMaxChain || std::find(passed, passed + seen, frame) != passed + seen) {
      *truncated = true;
      break;
    }
    passed[seen] = frame;
    if (seen > 0 && !read_frame(runtime, live, frame, copy, &budget)) break;
    const auto previous = field<uintptr_t>(copy.header, layout.frame_previous);
    if (copy.shim) {
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
    if (copy.has_code) {
      if (count == capacity) {
        *truncated = true;
        break;
      }
      const auto code = field<uintptr_t>(copy.header, layout.frame_code);
      const auto instruction = field<intptr_t>(copy.header, layout.frame_instruction);
      const auto units = static_cast<intptr_t>(code + layout.code_units);
      PythonFrameRef &ref = out[count++];
      ref.code = code;
      ref.qualname = field<uintptr_t>(copy.code, layout.code_qualname);
      ref.first_line = field<int32_t>(copy.code, layout.code_first_line);
      ref.instruction = static_cast<int32_t>((instruction - units) / 2);
      ref.last_of_group = layout.frame_is_entry >= 0 && copy.header[layout.frame_is_entry] != 0;
    }
    frame = previous;
  }
  return count;
}

} // namespace prof::python
