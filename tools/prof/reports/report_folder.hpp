// Reports given as files or folders of them, as prof merge and
// --import-profile of a folder read them.
#pragma once

#include "core/plugin_host/console.hpp"

#include <string>
#include <vector>

namespace prof::tool {

/// The reports `inputs` name: files as given, folders by their .profrep
/// files in name order (r2 before r10), leaving out `output` (a merge
/// written into the folder before). Throws cli::UsageError, its message
/// starting with `command` ("merge: ...").
std::vector<std::string> report_paths(const std::vector<std::string> &inputs,
                                      const std::string &output,
                                      const std::string &command = "merge");

/// The reports in `folder` merged into a new temporary report whose path is
/// returned (the caller removes it): --import-profile of a folder.
std::string merge_folder_to_temporary(const std::string &folder, core::Console &console);

} // namespace prof::tool
