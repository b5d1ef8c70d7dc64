// A post-processing subcommand's command line (prof stats, prof diff):
// its options, the words that are no option, and --help.
#pragma once

#include <boost/program_options.hpp>

#include <optional>
#include <string>
#include <vector>

namespace prof::cli {

/// `args` parsed against `options`, with the words that are no option
/// under "input" (read them with subcommand_inputs). nullopt when --help
/// asked for, and printed, `options`. A parse error throws UsageError
/// "COMMAND: what was wrong".
std::optional<boost::program_options::variables_map>
parse_subcommand(const std::vector<std::string> &args,
                 const boost::program_options::options_description &options,
                 const std::string &command);

/// The words of the command line that are no option, in order.
std::vector<std::string> subcommand_inputs(const boost::program_options::variables_map &values);

} // namespace prof::cli
