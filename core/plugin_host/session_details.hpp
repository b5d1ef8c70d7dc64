// The capture facts of a report header that prof_session_info's ABI 1.4
// fields point into (every pid, the plugins and their options, the rank),
// for exporters at the end of a capture and on a saved report alike.
#pragma once

#include "core/report/report_model.hpp"

#include <prof/plugin.h>

#include <string>
#include <vector>

namespace prof::core {

/// The plugins of `header` with the options they ran with, a line each:
/// "name version key=value ...".
std::string plugin_records_text(const report::Header &header);

/// Keep it alive as long as the session info that points into it.
struct SessionDetails {
  std::vector<int32_t> pids;
  std::string plugins; ///< "name version key=value ...", a line each
  std::string rank;
  /// Takes the facts from `header` and points `session` at them.
  void describe(const report::Header &header, prof_session_info &session);
};

/// The session info of a saved report, its ABI 1.4 fields in `details`
/// (both must outlive the info's use; it points into `header` too).
prof_session_info session_of(const report::Header &header, SessionDetails &details);

} // namespace prof::core
