#include "core/plugin_host/session_details.hpp"

namespace prof::core {

std::string plugin_records_text(const report::Header &header) {
  std::string text;
  for (const report::PluginRecord &plugin : header.plugins) {
    text += plugin.name + " " + plugin.version;
    for (const auto &[key, value] : plugin.options)
      text += " " + key + "=" + value;
    text += "\n";
  }
  return text;
}

void SessionDetails::describe(const report::Header &header, prof_session_info &session) {
  pids = header.pids;
  rank = header.rank;
  plugins = plugin_records_text(header);
  session.pids = pids.empty() ? nullptr : pids.data();
  session.pid_count = static_cast<uint32_t>(pids.size());
  session.plugins = plugins.c_str();
  session.rank = rank.c_str();
}

prof_session_info session_of(const report::Header &header, SessionDetails &details) {
  prof_session_info session{sizeof(prof_session_info),
                            header.session_name.c_str(),
                            header.pids.empty() ? 0 : header.pids.front(),
                            header.command_display.c_str(),
                            header.host_name.c_str(),
                            header.clock_anchor.realtime_ns,
                            header.clock_anchor.monotonic_ns,
                            header.session_start_ns};
  details.describe(header, session);
  return session;
}

} // namespace prof::core
