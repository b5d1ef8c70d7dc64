// The one exception type of the report writer: its message is a single line
// meant for the user.
#pragma once

#include <stdexcept>

namespace prof::report {

class ReportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

} // namespace prof::report
