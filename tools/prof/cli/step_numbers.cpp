#include "tools/prof/cli/step_numbers.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace prof::cli {

std::vector<uint64_t> step_numbers(const std::string &command, const std::string &list) {
  std::vector<uint64_t> steps;
  std::stringstream in(list);
  for (std::string word; std::getline(in, word, ',');) {
    const auto first = word.find_first_not_of(' ');
    if (first == std::string::npos) continue;
    word = word.substr(first, word.find_last_not_of(' ') - first + 1);
    char *end = nullptr;
    errno = 0;
    const unsigned long long number = std::strtoull(word.c_str(), &end, 10);
    if (*end != '\0' || word[0] == '-' || word[0] == '+' || errno == ERANGE)
      throw UsageError(command + ": --step '" + word + "' is not a step number");
    if (std::find(steps.begin(), steps.end(), number) == steps.end()) steps.push_back(number);
  }
  if (steps.empty()) throw UsageError(command + ": --step names no step");
  return steps;
}

} // namespace prof::cli
