#include "tools/prof/cli/plugin_spec.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <cctype>

namespace prof::cli {
namespace {

std::vector<std::string_view> split_words(std::string_view text) {
  std::vector<std::string_view> words;
  std::size_t pos = 0;
  while (pos < text.size()) {
    while (pos < text.size() && std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
    std::size_t end = pos;
    while (end < text.size() && !std::isspace(static_cast<unsigned char>(text[end])))
      ++end;
    if (end > pos) words.push_back(text.substr(pos, end - pos));
    pos = end;
  }
  return words;
}

bool is_identifier(std::string_view word) {
  return !word.empty() && std::all_of(word.begin(), word.end(), [](unsigned char c) {
    return std::isalnum(c) || c == '-' || c == '_' || c == '.';
  });
}

} // namespace

PluginSpec parse_plugin_spec(std::string_view text) {
  const std::string shown = "--plugin \"" + std::string(text) + "\"";
  auto words = split_words(text);
  if (words.empty()) throw UsageError("--plugin needs a plugin name, e.g. --plugin \"cpu-util\"");
  PluginSpec spec;
  spec.name = std::string(words[0]);
  if (!is_identifier(spec.name))
    throw UsageError(shown + ": '" + spec.name +
                     "' is not a plugin name (letters, digits, '-', '_', '.')");
  for (std::size_t i = 1; i < words.size(); ++i) {
    const std::string_view word = words[i];
    if (word == "help") {
      if (words.size() != 2) throw UsageError(shown + ": 'help' takes no other arguments");
      spec.help = true;
      continue;
    }
    const auto equals = word.find('=');
    if (equals == std::string_view::npos)
      throw UsageError(shown + ": '" + std::string(word) + "' is not key=value");
    const std::string key(word.substr(0, equals));
    if (!is_identifier(key))
      throw UsageError(shown + ": '" + std::string(word) + "' has no valid key before '='");
    const bool repeated = std::any_of(spec.options.begin(), spec.options.end(),
                                      [&](const auto &option) { return option.first == key; });
    if (repeated) throw UsageError(shown + ": '" + key + "' is given more than once");
    spec.options.emplace_back(key, std::string(word.substr(equals + 1)));
  }
  return spec;
}

} // namespace prof::cli
