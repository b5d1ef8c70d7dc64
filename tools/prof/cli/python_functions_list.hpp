// --python-functions-trace pytorch|FILE[,...]: the Python functions whose
// calls become annotation ranges, as the python source's option `functions`
// lists them.
#pragma once

#include <string>
#include <string_view>

namespace prof::cli {

/// The python source's `functions` text for the option's value: "pytorch"
/// (the built-in set) or JSON files as nsys and asys read them, a list of
///   "MODULE:QUALNAME" or "MODULE.FUNCTION" strings, or objects
///   {"module": M, "domain": D, "functions": [F | {"function": F,
///    "module": M, "domain": D}]}, without "functions" the whole module.
/// Throws UsageError naming the file, where in it and what was expected.
std::string python_functions_option(std::string_view value);

} // namespace prof::cli
