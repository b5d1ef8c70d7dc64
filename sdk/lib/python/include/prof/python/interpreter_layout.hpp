// Where CPython keeps what a sampler reads: the thread state's innermost
// frame, each frame's code, instruction and caller, and a code object's
// names and line table. Offsets are for 64-bit builds without free
// threading, measured from each version's headers (a test checks them
// against the headers it finds).
#ifndef PROF_PYTHON_INTERPRETER_LAYOUT_HPP
#define PROF_PYTHON_INTERPRETER_LAYOUT_HPP

#include <cstdint>

namespace prof::python {

struct InterpreterLayout {
  int minor;                  ///< 3.minor
  int tstate_cframe;          ///< PyThreadState.cframe, or -1 (3.13+: no _PyCFrame)
  int cframe_current_frame;   ///< _PyCFrame.current_frame
  int cframe_previous;        ///< _PyCFrame.previous
  int tstate_current_frame;   ///< PyThreadState.current_frame when tstate_cframe is -1
  int tstate_datastack_chunk; ///< PyThreadState.datastack_chunk: where frames live
  int tstate_datastack_top;   ///< PyThreadState.datastack_top: the end of the live ones
  int frame_code;             ///< _PyInterpreterFrame.f_code / f_executable
  int frame_previous;         ///< _PyInterpreterFrame.previous
  int frame_instruction;      ///< prev_instr (3.11, 3.12) / instr_ptr (3.13)
  int frame_is_entry;         ///< is_entry (3.11), or -1
  int frame_owner;            ///< owner
  int owned_by_c_stack;       ///< owner value of an entry shim frame (3.12+), or -1
  int code_filename;          ///< PyCodeObject.co_filename
  int code_qualname;          ///< PyCodeObject.co_qualname
  int code_first_line;        ///< PyCodeObject.co_firstlineno (int)
  int code_line_table;        ///< PyCodeObject.co_linetable (bytes)
  int code_units;             ///< PyCodeObject.co_code_adaptive: the instructions
  int ascii_size;             ///< sizeof(PyASCIIObject): a compact ASCII string's text follows
  int compact_size;           ///< sizeof(PyCompactUnicodeObject): other compact strings' text
};

/// Offsets of an object's type and of a string's length and state, the same
/// in every supported version.
inline constexpr int kObjectType = 8;
inline constexpr int kVarSize = 16;   ///< PyVarObject.ob_size (a bytes object's length)
inline constexpr int kBytesData = 32; ///< PyBytesObject.ob_sval
inline constexpr int kUnicodeLength = 16;
inline constexpr int kUnicodeState = 32;
/// _PyStackChunk: the previous chunk, the slots in use when it was left, the slots.
inline constexpr int kChunkPrevious = 0;
inline constexpr int kChunkTop = 16;
inline constexpr int kChunkData = 24;
/// _PyInterpreterFrame up to its local variables.
inline constexpr int kFrameHeader = 72;

/// The layout of CPython 3.`minor`, or nullptr when prof does not know it.
const InterpreterLayout *layout_for_minor(int minor);

} // namespace prof::python

#endif
