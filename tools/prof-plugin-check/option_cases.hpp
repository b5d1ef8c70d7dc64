// The values the options rules try for one option of a plugin's table:
// its bounds and the values just outside them, each choice and a value
// that is none, both words of a bool and one that is neither.
#pragma once

#include <prof/plugin.h>

#include <string>
#include <vector>

namespace prof::plugin_check {

struct OptionCase {
  std::string value;
  bool in_table = false; ///< the table allows it: the host and the plugin must accept it
  std::string what;      ///< "the minimum", "just above the maximum 100", ...
};

/// The cases for `option`; none for a STRING option (any text is allowed).
std::vector<OptionCase> option_cases(const prof_option_desc &option);

} // namespace prof::plugin_check
