/* The offsets the python source reads, measured from the headers of the
 * CPython the tests embed (its internal headers need Py_BUILD_CORE, and C). */
#define Py_BUILD_CORE 1
#include <Python.h>
#include <stddef.h>

#include "internal/pycore_frame.h"

#include "layout_probe.h"

struct header_layout python_header_layout(void) {
  struct header_layout l;
  l.minor = PY_MINOR_VERSION;
#if PY_VERSION_HEX >= 0x030D0000
  l.tstate_cframe = -1;
  l.cframe_current_frame = 0;
  l.cframe_previous = 0;
  l.tstate_current_frame = (int)offsetof(PyThreadState, current_frame);
  l.frame_code = (int)offsetof(_PyInterpreterFrame, f_executable);
  l.frame_instruction = (int)offsetof(_PyInterpreterFrame, instr_ptr);
#else
  l.tstate_cframe = (int)offsetof(PyThreadState, cframe);
  l.cframe_current_frame = (int)offsetof(_PyCFrame, current_frame);
  l.cframe_previous = (int)offsetof(_PyCFrame, previous);
  l.tstate_current_frame = -1;
  l.frame_code = (int)offsetof(_PyInterpreterFrame, f_code);
  l.frame_instruction = (int)offsetof(_PyInterpreterFrame, prev_instr);
#endif
  l.frame_previous = (int)offsetof(_PyInterpreterFrame, previous);
  l.tstate_datastack_chunk = (int)offsetof(PyThreadState, datastack_chunk);
  l.tstate_datastack_top = (int)offsetof(PyThreadState, datastack_top);
  l.chunk_previous = (int)offsetof(_PyStackChunk, previous);
  l.chunk_top = (int)offsetof(_PyStackChunk, top);
  l.chunk_data = (int)offsetof(_PyStackChunk, data);
  l.frame_header = (int)offsetof(_PyInterpreterFrame, localsplus);
#if PY_VERSION_HEX < 0x030C0000
  l.frame_is_entry = (int)offsetof(_PyInterpreterFrame, is_entry);
  l.owned_by_c_stack = -1;
#else
  l.frame_is_entry = -1;
  l.owned_by_c_stack = FRAME_OWNED_BY_CSTACK;
#endif
  l.frame_owner = (int)offsetof(_PyInterpreterFrame, owner);
  l.code_filename = (int)offsetof(PyCodeObject, co_filename);
  l.code_qualname = (int)offsetof(PyCodeObject, co_qualname);
  l.code_first_line = (int)offsetof(PyCodeObject, co_firstlineno);
  l.code_line_table = (int)offsetof(PyCodeObject, co_linetable);
  l.code_units = (int)offsetof(PyCodeObject, co_code_adaptive);
  l.ascii_size = (int)sizeof(PyASCIIObject);
  l.compact_size = (int)sizeof(PyCompactUnicodeObject);
  l.object_type = (int)offsetof(PyObject, ob_type);
  l.var_size = (int)offsetof(PyVarObject, ob_size);
  l.bytes_data = (int)offsetof(PyBytesObject, ob_sval);
  l.unicode_length = (int)offsetof(PyASCIIObject, length);
  l.unicode_state = (int)offsetof(PyASCIIObject, state);
  return l;
}
