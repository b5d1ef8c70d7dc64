#include "tools/prof/capture/application_environment.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <cctype>

namespace prof::tool {
namespace {

bool valid_key(const std::string &key) {
  if (key.empty() || std::isdigit(static_cast<unsigned char>(key[0]))) return false;
  for (char c : key)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_')) return false;
  return true;
}

} // namespace

ApplicationEnvironment application_environment(const cli::CommandLine &command) {
  ApplicationEnvironment environment;
  environment.inherit = command.value_or("inherit-environment", "true") == "true";
  if (const std::string *show = command.value("show-output"))
    environment.show_output = *show == "true";
  else
    environment.show_output = command.has("print-app-log") || !command.has("quiet");
  for (const cli::GivenOption &option : command.options) {
    if (option.name != "env-var") continue;
    size_t at = 0;
    while (at <= option.value.size()) {
      const size_t comma = std::min(option.value.find(',', at), option.value.size());
      const std::string entry = option.value.substr(at, comma - at);
      const size_t equals = entry.find('=');
      if (equals == std::string::npos || !valid_key(entry.substr(0, equals)))
        throw cli::UsageError("--env-var '" + entry +
                              "': expected KEY=VALUE, KEY of letters, digits and '_'");
      environment.variables.push_back(entry);
      at = comma + 1;
    }
  }
  return environment;
}

} // namespace prof::tool
