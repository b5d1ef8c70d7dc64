// The error the command-line layer throws for bad usage (exit code 2).
#pragma once

#include "core/plugin_host/input_error.hpp"

#include <string>

namespace prof::cli {

/// One line starting "prof: ". The caller prints it and exits with 2.
class UsageError : public core::InputError {
public:
  explicit UsageError(const std::string &message) : core::InputError("prof: " + message) {}
};

} // namespace prof::cli
