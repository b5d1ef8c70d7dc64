// example-ticks: a minimal source plugin. It runs a thread that, every
// interval, emits a "tick" slice on its own track and a counter of ticks so
// far. Everything a real source needs is here: options, tracks, emits,
// start/stop and an error through the host.
#include <prof/declared_options.hpp>
#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <chrono>
#include <string>

namespace {

/// The options, with their defaults: the descriptor's table, and what
/// configure() reads them against.
constexpr prof_option_desc kOptions[] = {
    {"interval-ms", PROF_OPTION_INT, "10", 1, 10000, nullptr, "time between two ticks"},
    {"label", PROF_OPTION_STRING, "tick", 0, -1, nullptr, "name of the tick slices"},
};

class ExampleTicks {
public:
  explicit ExampleTicks(prof::Host host) : host_(host) {}

  bool configure() {
    const prof::DeclaredOptions options(host_, kOptions);
    interval_ = std::chrono::milliseconds(options.integer("interval-ms"));
    label_ = std::string(options.text("label"));
    if (label_.empty()) {
      host_.error("label must not be empty");
      return false;
    }
    track_ = host_.track(PROF_TRACK_CUSTOM, "Example ticks");
    counter_ = host_.track(PROF_TRACK_COUNTER, "Example tick count", 0, 0, 0, -1, "ticks");
    name_ = host_.intern(label_);
    category_ = host_.intern("example");
    return track_ != 0 && counter_ != 0;
  }
  bool start() {
    return thread_.start(interval_, [this] {
      const uint64_t now = host_.now();
      host_.slice(track_, now, 1000, name_, category_, ++ticks_);
      host_.counter(counter_, now, static_cast<double>(ticks_));
    });
  }
  bool stop() {
    thread_.stop();
    return true;
  }
  bool suspend() {
    thread_.set_paused(true);
    return true;
  }
  bool resume() {
    thread_.set_paused(false);
    return true;
  }
  bool flush() { return true; }

private:
  prof::Host host_;
  std::chrono::milliseconds interval_{};
  std::string label_;
  prof_track_id track_ = 0, counter_ = 0;
  prof_string_id name_ = 0, category_ = 0;
  uint64_t ticks_ = 0;
  prof::PeriodicThread thread_; // last: stops before the members it uses go
};

constexpr prof_plugin_descriptor kDescriptor = prof::source_descriptor<ExampleTicks>(
    "example-ticks", "1.0.0", "Example source: a tick every interval", PROF_SCOPE_SYSTEM, kOptions,
    "prof SDK example");

} // namespace

PROF_PLUGIN_ENTRY(kDescriptor)
