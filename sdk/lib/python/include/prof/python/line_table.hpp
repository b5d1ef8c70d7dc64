// CPython's location table (co_linetable, 3.11+): which source line an
// instruction belongs to, as PyCode_Addr2Line answers it.
#ifndef PROF_PYTHON_LINE_TABLE_HPP
#define PROF_PYTHON_LINE_TABLE_HPP

#include <cstdint>
#include <span>

namespace prof::python {

/// Line of the instruction `index` code units into a code object whose
/// first line is `first_line` (that line before the first instruction); -1
/// when the table gives it none or ends first.
int line_of_instruction(std::span<const uint8_t> table, int first_line, int64_t index);

} // namespace prof::python

#endif
