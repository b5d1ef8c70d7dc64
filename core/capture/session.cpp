#include "core/capture/session.hpp"

#include <cctype>

namespace prof::core {

const char *state_name(SessionState state) {
  switch (state) {
  case SessionState::Created: return "created";
  case SessionState::Running: return "running";
  case SessionState::Suspended: return "suspended";
  case SessionState::Stopped: return "stopped";
  case SessionState::Cancelled: return "cancelled";
  }
  return "?";
}

bool valid_session_name(const std::string &name) {
  if (name.empty() || name.size() > 64) return false;
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_')) return false;
  return true;
}

Session::Session(std::string name) : name_(std::move(name)) {}

void Session::add_source(std::unique_ptr<SourceInstance> source) {
  sources_.push_back(std::move(source));
}

bool Session::refuse(const char *action) {
  error_ = std::string("cannot ") + action + " session '" + name_ + "': it is " + state_name(state_);
  return false;
}

bool Session::start() {
  if (state_ != SessionState::Created) return refuse("start");
  for (size_t i = 0; i < sources_.size(); ++i) {
    if (!sources_[i]->start()) {
      error_ = sources_[i]->error();
      for (size_t j = 0; j < i; ++j) sources_[j]->stop();
      return false;
    }
  }
  state_ = SessionState::Running;
  return true;
}

bool Session::suspend() {
  if (state_ != SessionState::Running) return refuse("suspend");
  for (auto &source : sources_)
    if (!source->suspend()) {
      error_ = source->error();
      return false;
    }
  state_ = SessionState::Suspended;
  return true;
}

bool Session::resume() {
  if (state_ != SessionState::Suspended) return refuse("resume");
  for (auto &source : sources_)
    if (!source->resume()) {
      error_ = source->error();
      return false;
    }
  state_ = SessionState::Running;
  return true;
}

bool Session::stop() {
  if (state_ != SessionState::Running && state_ != SessionState::Suspended) return refuse("stop");
  bool ok = true;
  for (auto &source : sources_) {
    // Every source is stopped and flushed even when one of them fails.
    if (!source->stop() || !source->flush()) {
      if (ok) error_ = source->error();
      ok = false;
    }
  }
  state_ = SessionState::Stopped;
  return ok;
}

bool Session::cancel() {
  if (state_ == SessionState::Stopped || state_ == SessionState::Cancelled) return refuse("cancel");
  for (auto &source : sources_) source->stop();
  state_ = SessionState::Cancelled;
  return true;
}

} // namespace prof::core
