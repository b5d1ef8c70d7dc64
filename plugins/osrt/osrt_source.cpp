#include "osrt_source.hpp"

#include "call_clock.hpp"
#include "stack_symbolizer.hpp"
#include "tracing_control.hpp"

#include <prof/declared_options.hpp>
#include <prof/stacks/return_addresses.hpp>

#include <string>

namespace prof::osrt {
namespace {

bool read_int(const Host &host, const DeclaredOptions &declared, const char *name, long long low,
              long long high, long long &out) {
  const std::string value(declared.text(name));
  char *end = nullptr;
  const long long parsed = std::strtoll(value.c_str(), &end, 10);
  if (value.empty() || *end != '\0' || parsed < low || parsed > high) {
    host.error("osrt: option " + std::string(name) + " must be an integer in [" +
               std::to_string(low) + ", " + std::to_string(high) + "], got '" + value + "'");
    return false;
  }
  out = parsed;
  return true;
}

} // namespace

OsrtSource::~OsrtSource() {
  if (started_) stop();
}

bool OsrtSource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  long long threshold = 0, backtrace_threshold = 0, depth = 0;
  if (!read_int(host_, declared, "threshold", 0, 1000000000000LL, threshold) ||
      !read_int(host_, declared, "backtrace-threshold", 0, 1000000000000LL, backtrace_threshold) ||
      !read_int(host_, declared, "backtrace-depth", 1, 127, depth))
    return false;
  settings_.threshold_ns = static_cast<uint64_t>(threshold);
  settings_.backtrace_threshold_ns = static_cast<uint64_t>(backtrace_threshold);
  settings_.backtrace_depth = static_cast<int>(depth);
  settings_.python_frames = declared.flag("python-backtrace");
  const std::string_view timer = declared.text("timer");
  if (timer != "auto" && timer != "monotonic") {
    host_.error("osrt: option timer must be auto or monotonic, got '" + std::string(timer) + "'");
    return false;
  }
  settings_.allow_tsc = timer == "auto";
  return true;
}

bool OsrtSource::start() {
  if (started_) return true;
  PassThroughScope pass; // nothing this does is the application's
  if (recorder_installed()) {
    host_.error("osrt: another osrt instance already traces this process");
    return false;
  }
  CallClock::calibrate(settings_.allow_tsc);
  // The unwinder loads and caches on first use; do that here, not in a call
  // being recorded.
  uintptr_t warm_up[4];
  stacks::capture_return_addresses(warm_up, 4);
  recorder_ = std::make_unique<CallRecorder>(host_, settings_);
  if (!install_recorder(recorder_.get(), CallClock::from_ns(settings_.threshold_ns))) {
    recorder_.reset();
    host_.error("osrt: another osrt instance already traces this process");
    return false;
  }
  started_ = true;
  return true;
}

bool OsrtSource::stop() {
  if (!started_) return true;
  remove_recorder(recorder_.get());
  recorder_.reset();
  started_ = false;
  return true;
}

bool OsrtSource::emit_unfinished(uint64_t now) {
  if (!started_) return true;
  PassThroughScope pass; // the dumping thread's own calls are not the application's
  recorder_->emit_unfinished(now);
  return true;
}

bool OsrtSource::suspend() {
  if (started_) set_tracing(false);
  return true;
}

bool OsrtSource::resume() {
  if (started_) set_tracing(true);
  return true;
}

} // namespace prof::osrt
