#include "tools/prof-plugin-check/option_cases.hpp"

#include <charconv>
#include <cmath>
#include <limits>
#include <string_view>

namespace prof::plugin_check {
namespace {

std::string number_text(double value) {
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
  return std::string(buffer, result.ptr);
}

void int_cases(const prof_option_desc &o, std::vector<OptionCase> &cases) {
  cases.push_back({"1.5", false, "not an integer"});
  if (o.min > o.max) return;        // no range
  constexpr double kLargest = 9e15; // integers a double holds exactly
  const long long min = static_cast<long long>(std::ceil(o.min));
  const long long max = static_cast<long long>(std::floor(o.max));
  cases.push_back({std::to_string(min), true, "the minimum"});
  cases.push_back({std::to_string(max), true, "the maximum"});
  if (o.min > -kLargest)
    cases.push_back(
        {std::to_string(min - 1), false, "just below the minimum " + std::to_string(min)});
  if (o.max < kLargest)
    cases.push_back(
        {std::to_string(max + 1), false, "just above the maximum " + std::to_string(max)});
}

void double_cases(const prof_option_desc &o, std::vector<OptionCase> &cases) {
  cases.push_back({"number", false, "not a number"});
  if (o.min > o.max) return;
  const double step = o.max > o.min ? (o.max - o.min) / 100 : 1;
  cases.push_back({number_text(o.min), true, "the minimum"});
  cases.push_back({number_text(o.max), true, "the maximum"});
  cases.push_back(
      {number_text(o.min - step), false, "just below the minimum " + number_text(o.min)});
  cases.push_back(
      {number_text(o.max + step), false, "just above the maximum " + number_text(o.max)});
}

void enum_cases(const prof_option_desc &o, std::vector<OptionCase> &cases) {
  std::string_view rest = o.choices ? o.choices : "";
  while (!rest.empty()) {
    const size_t comma = rest.find(',');
    const std::string_view choice = rest.substr(0, comma);
    if (!choice.empty()) cases.push_back({std::string(choice), true, "a choice"});
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  cases.push_back({"no-such-choice", false, "none of the choices"});
}

} // namespace

std::vector<OptionCase> option_cases(const prof_option_desc &option) {
  std::vector<OptionCase> cases;
  switch (option.type) {
  case PROF_OPTION_BOOL:
    cases = {{"true", true, "a bool word"},
             {"false", true, "a bool word"},
             {"maybe", false, "not a bool word"}};
    break;
  case PROF_OPTION_INT:
    int_cases(option, cases);
    break;
  case PROF_OPTION_DOUBLE:
    double_cases(option, cases);
    break;
  case PROF_OPTION_ENUM:
    enum_cases(option, cases);
    break;
  case PROF_OPTION_STRING:
    break;
  }
  return cases;
}

} // namespace prof::plugin_check
