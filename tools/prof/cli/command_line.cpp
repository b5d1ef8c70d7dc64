#include "tools/prof/cli/command_line.hpp"

namespace prof::cli {

const GivenOption *CommandLine::find(std::string_view name) const {
  for (const auto &option : options)
    if (option.name == name) return &option;
  return nullptr;
}

bool CommandLine::has(std::string_view name) const { return find(name) != nullptr; }

const std::string *CommandLine::value(std::string_view name) const {
  const GivenOption *option = find(name);
  return option ? &option->value : nullptr;
}

std::string CommandLine::value_or(std::string_view name, std::string_view fallback) const {
  const std::string *text = value(name);
  return text ? *text : std::string(fallback);
}

long CommandLine::int_or(std::string_view name, long fallback) const {
  const std::string *text = value(name);
  return text ? std::stol(*text) : fallback;
}

void CommandLine::set(std::string name, std::string value, std::string origin) {
  for (auto &option : options) {
    if (option.name == name) {
      option.value = std::move(value);
      option.origin = std::move(origin);
      return;
    }
  }
  options.push_back({std::move(name), std::move(value), std::move(origin)});
}

} // namespace prof::cli
