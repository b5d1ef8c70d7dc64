#include "cpu_util_source.hpp"

#include <prof/declared_options.hpp>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <unistd.h>

namespace prof::cpu_util {

CpuUtilSource::~CpuUtilSource() { stop(); }

bool CpuUtilSource::check_readable(const char *file) {
  if (fs_.read(file)) return true;
  host_.error(std::string("cpu-util: cannot read /proc/") + file + ": " + std::strerror(errno));
  return false;
}

bool CpuUtilSource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  if (thread_.running()) {
    host_.error("cpu-util: configure while sampling; stop first");
    return false;
  }
  const long long frequency = declared.integer("frequency");
  if (frequency < 1 || frequency > 1000) {
    host_.error("cpu-util: frequency must be 1..1000 Hz, got " + std::to_string(frequency));
    return false;
  }
  SamplerOptions options;
  options.cpu = declared.flag("cpu");
  options.memory = declared.flag("memory");
  if (!options.cpu && !options.memory) {
    host_.error("cpu-util: nothing to sample: cpu and memory are both false; enable at least one");
    return false;
  }
  if (options.cpu && !check_readable("stat")) return false;
  if (options.memory && !check_readable("meminfo")) return false;

  options.target_pid = host_.session().target_pid;
  options.ticks_per_second = sysconf(_SC_CLK_TCK);
  options.page_size = sysconf(_SC_PAGESIZE);
  if (options.ticks_per_second <= 0) options.ticks_per_second = 100;
  if (options.page_size <= 0) options.page_size = 4096;

  // The target is held before exec when sources start, so its comm is still
  // prof's: the session's command line names it.
  const char *command = host_.session().command;
  std::string process_name =
      command && *command ? std::string(command) : "process " + std::to_string(options.target_pid);
  if (options.target_pid > 0) {
    const auto text = fs_.read(std::to_string(options.target_pid) + "/stat");
    if (!text || !parse_pid_stat(*text))
      host_.log(PROF_LOG_WARN, "cpu-util: target process " + std::to_string(options.target_pid) +
                                   " is not running; no process counters until it appears");
  }

  std::lock_guard lock(sample_mutex_);
  frequency_hz_ = static_cast<int>(frequency);
  sampler_ = std::make_unique<SystemSampler>(fs_, options);
  tracks_ = std::make_unique<CounterTracks>(host_, options.target_pid, process_name);
  return true;
}

bool CpuUtilSource::start() {
  if (!sampler_) {
    host_.error("cpu-util: start before a successful configure");
    return false;
  }
  if (thread_.running()) {
    host_.error("cpu-util: already started");
    return false;
  }
  {
    std::lock_guard lock(sample_mutex_);
    sampler_->reset();
  }
  thread_.start(std::chrono::nanoseconds(1'000'000'000LL / frequency_hz_),
                [this] { sample_and_emit(); });
  return true;
}

bool CpuUtilSource::stop() {
  thread_.stop();
  return true;
}

bool CpuUtilSource::suspend() {
  thread_.set_paused(true);
  return true;
}

bool CpuUtilSource::resume() {
  {
    // Deltas across the pause would blur it into one long tick.
    std::lock_guard lock(sample_mutex_);
    if (sampler_) sampler_->reset();
  }
  thread_.set_paused(false);
  return true;
}

bool CpuUtilSource::flush() {
  if (sampler_) sample_and_emit();
  return true;
}

void CpuUtilSource::sample_and_emit() {
  std::lock_guard lock(sample_mutex_);
  const uint64_t now = host_.now();
  tracks_->emit(sampler_->take(now), now);
}

} // namespace prof::cpu_util
