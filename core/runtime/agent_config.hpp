// What prof tells the agent in profiled processes: the session and the
// process-scope plugins to run with their options. Written as text into the
// shared region; every field is percent-encoded, one record per line.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace prof::core {

struct AgentPlugin {
  std::string name;
  std::string path;                                         ///< the .so prof found (and preloads)
  std::vector<std::pair<std::string, std::string>> options; ///< validated values
};

struct AgentConfig {
  std::string session;
  int target_pid = 0;
  std::string command;
  std::string host;
  std::vector<AgentPlugin> plugins;
  std::string step_marker_name;   ///< --step-marker: annotation ranges whose end is a step
  std::string step_marker_domain; ///< "" the default domain, "*" any
  /// --flight-recorder: the agent answers prof's dumps with its plugins'
  /// unfinished slices (ShmHeader::unfinished_asked).
  bool answers_dumps = false;
  /// --hang-timeout: the agent tells prof of a communication call that has
  /// been open this long (kCaptureStall); 0: it does not look.
  uint64_t stall_ns = 0;

  std::string encode() const;
  /// nullopt with `error` set for text that is not a config of this version.
  static std::optional<AgentConfig> decode(std::string_view text, std::string *error);
};

} // namespace prof::core
