/* What layout_probe.c measures, field for field as InterpreterLayout. */
#ifndef PROF_TESTS_PYTHON_LAYOUT_PROBE_H
#define PROF_TESTS_PYTHON_LAYOUT_PROBE_H

#ifdef __cplusplus
extern "C" {
#endif

struct header_layout {
  int minor, tstate_cframe, cframe_current_frame, tstate_current_frame, frame_code, frame_previous,
      frame_instruction, frame_is_entry, frame_owner, owned_by_c_stack, code_filename,
      code_qualname, code_first_line, code_line_table, code_units, ascii_size, compact_size,
      object_type, var_size, bytes_data, unicode_length, unicode_state, cframe_previous,
      tstate_datastack_chunk, tstate_datastack_top, chunk_previous, chunk_top, chunk_data,
      frame_header;
};

struct header_layout python_header_layout(void);

#ifdef __cplusplus
}
#endif

#endif
