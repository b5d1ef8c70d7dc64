#include "tools/prof/cli/subcommand_options.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <cstdio>
#include <sstream>

namespace po = boost::program_options;

namespace prof::cli {

std::optional<po::variables_map> parse_subcommand(const std::vector<std::string> &args,
                                                  const po::options_description &options,
                                                  const std::string &command) {
  po::options_description all; // and the inputs, which --help leaves to the usage line
  all.add(options).add_options()("input", po::value<std::vector<std::string>>());
  po::positional_options_description positional;
  positional.add("input", -1);
  po::variables_map values;
  try {
    po::store(po::command_line_parser(args).options(all).positional(positional).run(), values);
  } catch (const po::error &e) {
    throw UsageError(command + ": " + e.what());
  }
  if (values.count("help")) {
    std::ostringstream text;
    text << options;
    std::fputs(text.str().c_str(), stdout);
    return std::nullopt;
  }
  return values;
}

std::vector<std::string> subcommand_inputs(const po::variables_map &values) {
  return values.count("input") ? values["input"].as<std::vector<std::string>>()
                               : std::vector<std::string>{};
}

} // namespace prof::cli
