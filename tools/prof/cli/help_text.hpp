// prof --help and prof --version texts.
#pragma once

#include <string>

namespace prof::cli {

/// Usage and every option, grouped like topsprof's tables.
std::string help_text();

/// "prof VERSION".
std::string version_text();

} // namespace prof::cli
