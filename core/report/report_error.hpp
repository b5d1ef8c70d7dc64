// The one exception type of the report writer: its message is a single line
// meant for the user.
#pragma once

#include <stdexcept>
#include <string>

namespace prof::report {

class ReportError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// A path or name as messages quote it: 'path'.
inline std::string in_quotes(const std::string &text) { return "'" + text + "'"; }

} // namespace prof::report
