// Bad input a user gave prof (a name, an option's value, a file), found by
// core code. Front ends print it as one line and exit with 2.
#pragma once

#include <stdexcept>
#include <string>

namespace prof::core {

/// One line that names the input and what was expected.
class InputError : public std::runtime_error {
public:
  explicit InputError(const std::string &message) : std::runtime_error(message) {}
};

} // namespace prof::core
