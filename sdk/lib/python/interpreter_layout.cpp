#include <prof/python/interpreter_layout.hpp>

namespace prof::python {
namespace {

// clang-format off
constexpr InterpreterLayout kLayouts[] = {
    // minor cframe cur prev tstate chunk top code prev instr entry owner cstack file qual first table units ascii compact
    {11,     56,    8,  16,  -1,    296,  304, 32,  48,  56,   68,   69,   -1,    112, 128, 72,   136,  184,  48,   72},
    {12,     56,    0,  8,   -1,    232,  240, 0,   8,   56,   -1,   70,   3,     112, 128, 68,   136,  192,  40,   56},
    {13,     -1,    0,  0,   72,    232,  240, 0,   8,   56,   -1,   70,   3,     112, 128, 68,   136,  200,  40,   56},
};
// clang-format on

} // namespace

const InterpreterLayout *layout_for_minor(int minor) {
  for (const auto &layout : kLayouts)
    if (layout.minor == minor) return &layout;
  return nullptr;
}

} // namespace prof::python
