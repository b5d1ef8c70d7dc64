// A capture session's life: created, running, suspended, stopped, cancelled.
// The session drives its sources through each transition.
#pragma once

#include "core/plugin_host/source_instance.hpp"

#include <memory>
#include <string>
#include <vector>

namespace prof::core {

enum class SessionState { Created, Running, Suspended, Stopped, Cancelled };

const char *state_name(SessionState state);

/// Whether `name` is a valid session name: letters, digits, '-', '_', 1 to 64 chars.
bool valid_session_name(const std::string &name);

class Session {
public:
  explicit Session(std::string name);

  const std::string &name() const { return name_; }
  SessionState state() const { return state_; }

  /// Takes ownership of a created and configured source.
  void add_source(std::unique_ptr<SourceInstance> source);
  const std::vector<std::unique_ptr<SourceInstance>> &sources() const { return sources_; }

  /// Each returns false with error() set when the transition is not allowed
  /// from the current state or a source fails; the state changes only on success,
  /// except that a failing start stops the sources already started.
  bool start();
  bool suspend();
  bool resume();
  /// Stops and flushes every source (running or suspended → stopped).
  bool stop();
  /// Stops the sources and marks the collected data as discarded.
  bool cancel();
  const std::string &error() const { return error_; }

private:
  bool refuse(const char *action);

  std::string name_;
  SessionState state_ = SessionState::Created;
  std::vector<std::unique_ptr<SourceInstance>> sources_;
  std::string error_;
};

} // namespace prof::core
