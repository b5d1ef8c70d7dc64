#include "core/runtime/source_lifecycle.hpp"

#include <utility>

namespace prof::core {

SourceLifecycle::SourceLifecycle(std::string name, const prof_source_vtable &vtable,
                                 std::string origin)
    : name_(std::move(name)), origin_(std::move(origin)), vtable_(vtable) {}

SourceLifecycle::~SourceLifecycle() { destroy(); }

void SourceLifecycle::destroy() {
  stop();
  if (instance_) vtable_.destroy(instance_);
  instance_ = nullptr;
}

bool SourceLifecycle::keep_error(std::string_view message) {
  if (!in_call_.load(std::memory_order_relaxed)) return false;
  logged_error_ = message;
  return true;
}

bool SourceLifecycle::create(const prof_host_api &api, void *host) {
  logged_error_.clear();
  in_call_ = true;
  instance_ = vtable_.create(&api, host);
  in_call_ = false;
  if (instance_) return true;
  error_ = "plugin '" + name_ + "'" + (origin_.empty() ? "" : " (" + origin_ + ")") +
           ": create failed" + (logged_error_.empty() ? "" : ": " + logged_error_);
  return false;
}

bool SourceLifecycle::call(const char *step, prof_status (*fn)(void *)) {
  if (instance_ == nullptr) {
    error_ = "plugin '" + name_ + "': " + step + " before create";
    return false;
  }
  if (fn == nullptr) return true; // an optional step the plugin does not need
  logged_error_.clear();
  in_call_ = true;
  const prof_status status = fn(instance_);
  in_call_ = false;
  if (status == PROF_OK) return true;
  error_ = "plugin '" + name_ + "': " + step + " failed" +
           (logged_error_.empty() ? "" : ": " + logged_error_);
  return false;
}

bool SourceLifecycle::configure() { return call("configure", vtable_.configure); }
bool SourceLifecycle::start() { return started_ = call("start", vtable_.start); }
bool SourceLifecycle::stop() {
  if (!started_) return true;
  started_ = false;
  return call("stop", vtable_.stop);
}
bool SourceLifecycle::suspend() { return call("suspend", vtable_.suspend); }
bool SourceLifecycle::resume() { return call("resume", vtable_.resume); }
bool SourceLifecycle::flush() { return call("flush", vtable_.flush); }

bool SourceLifecycle::query(const std::string &what, void (*print)(void *, const char *),
                            void *ctx) {
  error_.clear();
  if (!instance_ || !vtable_.query) return false;
  logged_error_.clear();
  in_call_ = true;
  const prof_status status = vtable_.query(instance_, what.c_str(), print, ctx);
  in_call_ = false;
  if (status == PROF_OK) return true;
  // A plugin that does not know the query says nothing; one that failed at it says why.
  if (!logged_error_.empty()) error_ = "plugin '" + name_ + "': " + logged_error_;
  return false;
}

} // namespace prof::core
