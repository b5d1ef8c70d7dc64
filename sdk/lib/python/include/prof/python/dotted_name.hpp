// Whether a text is a dotted Python name ("torch.nn.functional",
// "Linear.forward"): the python source's function list and prof's
// --python-functions-trace check names with it. Header-only.
#ifndef PROF_PYTHON_DOTTED_NAME_HPP
#define PROF_PYTHON_DOTTED_NAME_HPP

#include <string_view>

namespace prof::python {

/// Identifiers (ASCII letters, digits, '_', and any non-ASCII byte, as
/// Python's Unicode identifiers) joined by single dots.
inline bool is_dotted_name(std::string_view text) {
  bool word_start = true;
  for (const char c : text) {
    if (c == '.') {
      if (word_start) return false;
      word_start = true;
      continue;
    }
    const bool letter = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
                        static_cast<unsigned char>(c) >= 0x80;
    if (!letter && (word_start || c < '0' || c > '9')) return false;
    word_start = false;
  }
  return !text.empty() && !word_start;
}

} // namespace prof::python

#endif
