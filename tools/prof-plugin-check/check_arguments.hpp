// The checker's command line: prof-plugin-check PLUGIN.so [--option k=v ...]
// [--workload LIB.so] [--sample FILE ...].
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

namespace prof::plugin_check {

struct CheckArguments {
  std::filesystem::path plugin; ///< the .so to check
  /// --option pairs in the order given: the values every run starts from.
  std::vector<std::pair<std::string, std::string>> options;
  /// --workload: a library standing in for the application (workload.hpp).
  std::filesystem::path workload;
  /// --sample: files an importer reads.
  std::vector<std::filesystem::path> samples;
  bool help = false;
};

/// Parses argv; throws core::InputError with one line naming the input and
/// what was expected (unknown option, missing or extra file, malformed
/// --option, a plugin file that does not exist).
CheckArguments parse_check_arguments(int argc, const char *const *argv);

/// The --help text.
std::string check_usage();

} // namespace prof::plugin_check
