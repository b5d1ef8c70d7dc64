// Wide-character annotation text (NVTX's W functions) as UTF-8.
#ifndef PROF_PLUGINS_NVTX_WIDE_TEXT_HPP
#define PROF_PLUGINS_NVTX_WIDE_TEXT_HPP

#include <string>

namespace prof::nvtx {

/// `text` (UTF-32 wchar_t, as on Linux) as UTF-8; invalid code points become U+FFFD.
std::string utf8_from_wide(const wchar_t *text);

} // namespace prof::nvtx

#endif
