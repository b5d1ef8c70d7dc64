// The error the command-line layer throws for bad usage (exit code 2).
#pragma once

#include <stdexcept>
#include <string>

namespace prof::cli {

/// One line starting "prof: ". The caller prints it and exits with 2.
class UsageError : public std::runtime_error {
public:
  explicit UsageError(const std::string &message) : std::runtime_error("prof: " + message) {}
};

} // namespace prof::cli
