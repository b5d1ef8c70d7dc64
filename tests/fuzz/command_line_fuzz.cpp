// Fuzzes prof's command-line parser: the input is argv after the program
// name, one argument per NUL-separated piece. parse_arguments() then
// check_option_rules(), as prof does without a profile; every rejection must
// be a UsageError.
#include "tools/prof/cli/command_line_parser.hpp"
#include "tools/prof/cli/option_rules.hpp"
#include "tools/prof/cli/subcommand_table.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  const std::string_view input(reinterpret_cast<const char *>(data), size);
  std::vector<std::string> args;
  for (size_t at = 0; at <= input.size();) {
    const size_t end = std::min(input.find('\0', at), input.size());
    args.emplace_back(input.substr(at, end - at));
    at = end + 1;
  }
  if (!args.empty() && args.back().empty()) args.pop_back(); // a trailing NUL ends the last one
  try {
    const prof::cli::CommandLine command = prof::cli::parse_arguments(args);
    prof::cli::check_option_rules(command);
    (void)prof::cli::find_subcommand(command.subcommand);
  } catch (const prof::cli::UsageError &) {
  }
  return 0;
}
