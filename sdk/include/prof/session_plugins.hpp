// Reading prof_session_info::plugins, the capture's plugins with their
// options ("name version key=value key=value", one a line).
#ifndef PROF_SESSION_PLUGINS_HPP
#define PROF_SESSION_PLUGINS_HPP

#include <algorithm>
#include <string>
#include <string_view>

namespace prof {

/// The value of `key=` in the line of `plugin` in `plugins`; "" when the
/// plugin or the key is absent.
inline std::string session_plugin_option(std::string_view plugins, std::string_view plugin,
                                         std::string_view key) {
  for (size_t at = 0; at < plugins.size();) {
    const size_t end = std::min(plugins.find('\n', at), plugins.size());
    const std::string_view line = plugins.substr(at, end - at);
    at = end + 1;
    if (!line.starts_with(std::string(plugin) + " ")) continue;
    const std::string wanted = " " + std::string(key) + "=";
    const size_t found = line.find(wanted);
    if (found == std::string_view::npos) return "";
    const size_t from = found + wanted.size();
    return std::string(line.substr(from, line.find(' ', from) - from));
  }
  return "";
}

} // namespace prof

#endif
