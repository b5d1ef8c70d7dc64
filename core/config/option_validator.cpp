#include "core/config/option_validator.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <set>

namespace prof::config {
namespace {

std::string lower(std::string_view text) {
  std::string out(text);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

std::string format_number(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

std::string in_quotes(std::string_view text) { return "'" + std::string(text) + "'"; }

bool has_range(const prof_option_desc &option) { return option.min <= option.max; }

std::string range_text(const prof_option_desc &option) {
  return format_number(option.min) + ".." + format_number(option.max);
}

std::vector<std::string> split_choices(const char *choices) {
  std::vector<std::string> out;
  std::string_view rest = choices ? choices : "";
  while (!rest.empty()) {
    auto comma = rest.find(',');
    std::string_view item = rest.substr(0, comma);
    while (!item.empty() && item.front() == ' ')
      item.remove_prefix(1);
    while (!item.empty() && item.back() == ' ')
      item.remove_suffix(1);
    if (!item.empty()) out.emplace_back(item);
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return out;
}

std::string join(const std::vector<std::string> &items, std::string_view separator) {
  std::string out;
  for (const auto &item : items) {
    if (!out.empty()) out += separator;
    out += item;
  }
  return out;
}

ValueCheck check_int(const prof_option_desc &option, std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  long long number = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size())
    return {{}, in_quotes(text) + " is not an integer"};
  if (has_range(option) && (number < option.min || number > option.max))
    return {{}, std::to_string(number) + " is out of range " + range_text(option)};
  return {std::to_string(number), {}};
}

ValueCheck check_double(const prof_option_desc &option, std::string_view text) {
  std::string_view digits = text;
  if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
  double number = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), number);
  if (digits.empty() || ec != std::errc() || end != digits.data() + digits.size() ||
      !std::isfinite(number))
    return {{}, in_quotes(text) + " is not a number"};
  if (has_range(option) && (number < option.min || number > option.max))
    return {{}, format_number(number) + " is out of range " + range_text(option)};
  return {format_number(number), {}};
}

ValueCheck check_enum(const prof_option_desc &option, std::string_view text) {
  auto choices = split_choices(option.choices);
  for (const auto &choice : choices)
    if (lower(choice) == lower(text)) return {choice, {}};
  return {{}, in_quotes(text) + " is not one of " + join(choices, ", ")};
}

} // namespace

bool parse_bool_word(std::string_view text, bool &value) {
  const std::string word = lower(text);
  if (word == "true" || word == "on" || word == "yes" || word == "1") {
    value = true;
    return true;
  }
  if (word == "false" || word == "off" || word == "no" || word == "0") {
    value = false;
    return true;
  }
  return false;
}

OptionValidator::OptionValidator(std::string plugin, std::span<const prof_option_desc> options)
    : plugin_(std::move(plugin)), options_(options) {}

OptionValidator::OptionValidator(std::string plugin, const prof_option_desc *options,
                                 std::size_t count)
    : plugin_(std::move(plugin)),
      options_(options ? std::span<const prof_option_desc>(options, count)
                       : std::span<const prof_option_desc>()) {}

const prof_option_desc *OptionValidator::find(std::string_view key) const {
  for (const auto &option : options_)
    if (option.name && key == option.name) return &option;
  return nullptr;
}

std::string OptionValidator::unknown_option_message(std::string_view key) const {
  std::vector<std::string> names;
  for (const auto &option : options_)
    if (option.name) names.emplace_back(option.name);
  std::string message = "plugin " + in_quotes(plugin_) + " has no option " + in_quotes(key);
  message += names.empty() ? " (it takes no options)" : " (options: " + join(names, ", ") + ")";
  return message;
}

std::string OptionValidator::value_message(std::string_view key, std::string_view reason) const {
  return "option " + in_quotes(key) + " of plugin " + in_quotes(plugin_) + ": " +
         std::string(reason);
}

ValueCheck OptionValidator::check_value(const prof_option_desc &option, std::string_view value) {
  switch (option.type) {
  case PROF_OPTION_BOOL: {
    bool flag = false;
    if (!parse_bool_word(value, flag))
      return {{}, in_quotes(value) + " is not a boolean (true/false, on/off, yes/no, 1/0)"};
    return {flag ? "true" : "false", {}};
  }
  case PROF_OPTION_INT:
    return check_int(option, value);
  case PROF_OPTION_DOUBLE:
    return check_double(option, value);
  case PROF_OPTION_ENUM:
    return check_enum(option, value);
  case PROF_OPTION_STRING:
    return {std::string(value), {}};
  }
  return {{}, "has an unknown type in the plugin's option table"};
}

std::string OptionValidator::default_problem(const prof_option_desc &option) {
  if (option.default_value == nullptr) return {};
  const ValueCheck check = check_value(option, option.default_value);
  if (check.ok()) return {};
  return "option " + in_quotes(option.name ? option.name : "") + " has a default " +
         in_quotes(option.default_value) + " that its own table refuses: " + check.error;
}

ValidatedOptions OptionValidator::validate(const OptionValues &given, bool fill_defaults) const {
  ValidatedOptions result;
  std::set<std::string, std::less<>> seen;
  for (const auto &[key, value] : given) {
    const prof_option_desc *option = find(key);
    if (!option) {
      result.errors.push_back(unknown_option_message(key));
      continue;
    }
    if (!seen.insert(key).second) {
      result.errors.push_back(value_message(key, "given more than once"));
      continue;
    }
    ValueCheck check = check_value(*option, value);
    if (!check.ok())
      result.errors.push_back(value_message(key, check.error));
    else
      result.values.emplace_back(key, std::move(check.value));
  }
  if (fill_defaults) {
    for (const auto &option : options_)
      if (option.name && option.default_value && !seen.contains(std::string_view(option.name)))
        result.values.emplace_back(option.name, option.default_value);
  }
  return result;
}

} // namespace prof::config
