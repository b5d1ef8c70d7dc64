// One source plugin instance through its lifecycle, the same in prof and in
// the in-application agent: create against a host table, configure, start,
// suspend and resume, flush, stop, destroy. Each step that fails says why,
// with the error the plugin logged during it.
#pragma once

#include <prof/plugin.h>

#include <atomic>
#include <string>
#include <string_view>

namespace prof::core {

class SourceLifecycle {
public:
  /// `name` names the plugin in errors ("plugin 'NAME': start failed: ..."),
  /// `origin` (its file, say) the failure to create it.
  SourceLifecycle(std::string name, const prof_source_vtable &vtable, std::string origin = {});
  /// destroy()
  ~SourceLifecycle();
  SourceLifecycle(const SourceLifecycle &) = delete;
  SourceLifecycle &operator=(const SourceLifecycle &) = delete;

  /// Each returns false with error() set to "plugin 'NAME': STEP failed: REASON".
  bool create(const prof_host_api &api, void *host);
  bool configure();
  bool start();
  /// Stops a running instance (true when it was not running).
  bool stop();
  bool suspend();
  bool resume();
  bool flush();
  /// Stops the instance if it runs, then destroys it; idempotent.
  void destroy();
  /// Prints the answer to a query through `print`; false when unsupported
  /// (error() then says why if the plugin failed at it).
  bool query(const std::string &what, void (*print)(void *, const char *), void *ctx);

  /// For the host's log(): an error logged inside a step explains that
  /// step's failure and is kept (true); outside one, false, and the host
  /// shows it itself.
  bool keep_error(std::string_view message);

  const std::string &name() const { return name_; }
  const prof_source_vtable &vtable() const { return vtable_; }
  void *instance() const { return instance_; }
  bool running() const { return started_; }
  const std::string &error() const { return error_; }

private:
  bool call(const char *step, prof_status (*fn)(void *));

  std::string name_;
  std::string origin_;
  const prof_source_vtable &vtable_;
  void *instance_ = nullptr;
  bool started_ = false;
  std::atomic<bool> in_call_{false};
  std::string error_;
  std::string logged_error_;
};

} // namespace prof::core
