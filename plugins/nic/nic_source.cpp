#include "nic_source.hpp"

#include "tick_cost.hpp"

#include <prof/declared_options.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <memory>
#include <sys/prctl.h>
#include <variant>

namespace prof::nic {
namespace {

std::string join(const std::vector<std::string> &names) {
  std::string text;
  for (const std::string &name : names)
    text += (text.empty() ? "" : ", ") + name;
  return text.empty() ? "none" : text;
}

std::string format_us(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", seconds * 1e6);
  return text;
}

} // namespace

NicSource::~NicSource() { stop(); }

bool NicSource::make_sampler(int64_t &frequency) {
  const DeclaredOptions declared(host_, kOptions);
  frequency = declared.integer("frequency");
  if (frequency < 1 || frequency > 100000) {
    host_.error("nic: frequency must be 1..100000 Hz, got " + std::to_string(frequency));
    return false;
  }
  const std::string include(declared.text("include"));
  auto parsed = DeviceFilter::parse(include, declared.flag("loopback"));
  if (auto *error = std::get_if<std::string>(&parsed)) {
    host_.error(*error);
    return false;
  }
  SamplerOptions options;
  options.sysfs_root = std::string(declared.text("sysfs-root"));
  while (!options.sysfs_root.empty() && options.sysfs_root.back() == '/')
    options.sysfs_root.pop_back();
  // /proc/net/dev describes the running system; a prepared tree has only sysfs.
  const std::string stats(declared.text("netdev-stats"));
  const bool proc = stats == "proc" || (stats == "auto" && options.sysfs_root == "/sys");
  options.netdev_stats = proc ? NetdevStats::kProc : NetdevStats::kSysfs;

  auto sampler =
      std::make_unique<NicSampler>(std::get<DeviceFilter>(std::move(parsed)), std::move(options));
  if (const auto error = sampler->open_error()) {
    host_.error("nic: " + *error);
    return false;
  }
  std::vector<DeviceMetrics> scratch;
  if (sampler->take(host_.now(), scratch) == 0) {
    const DeviceFilter &filter = sampler->filter();
    host_.error("nic: no network device matches include=\"" + filter.include_text() + "\"" +
                (filter.loopback() ? ""
                                   : " (a loopback device needs a pattern naming it, e.g. "
                                     "\"lo\", or loopback=true)") +
                "; devices found: " + join(sampler->all_names()));
    return false;
  }
  std::lock_guard lock(sample_mutex_);
  sampler_ = std::move(sampler);
  return true;
}

void NicSource::cap_frequency(int64_t &frequency) {
  std::vector<DeviceMetrics> scratch;
  const double tick = measure_tick_cpu_seconds([&] { sampler_->take(host_.now(), scratch); });
  const int64_t sustained = sustainable_frequency(tick);
  if (frequency <= sustained) return;
  host_.log(PROF_LOG_WARN, "nic: frequency " + std::to_string(frequency) + " Hz lowered to " +
                               std::to_string(sustained) + " Hz: one sample costs " +
                               format_us(tick) + " us of CPU here, and sampling may use at most " +
                               std::to_string(static_cast<int>(kCpuBudget * 100)) +
                               "% of one core");
  frequency = sustained;
}

bool NicSource::configure() {
  if (thread_.running()) {
    host_.error("nic: configure while sampling; stop first");
    return false;
  }
  int64_t frequency = 0;
  if (!make_sampler(frequency)) return false;
  std::lock_guard lock(sample_mutex_);
  cap_frequency(frequency);
  frequency_hz_ = frequency;
  tracks_ = std::make_unique<NicTracks>(host_);
  return true;
}

bool NicSource::start() {
  if (!sampler_) {
    host_.error("nic: start before a successful configure");
    return false;
  }
  if (thread_.running()) {
    host_.error("nic: already started");
    return false;
  }
  {
    std::lock_guard lock(sample_mutex_);
    sampler_->reset();
  }
  const auto period = std::chrono::nanoseconds(1'000'000'000LL / frequency_hz_);
  auto cpu_begin = std::make_shared<double>(0);
  PeriodicThread::Hooks hooks;
  hooks.on_start = [period, cpu_begin] {
    // The default 50 us timer slack is half a period at 10 kHz: wake on time.
    prctl(PR_SET_TIMERSLACK, std::clamp<unsigned long>(period.count() / 20, 1, 50'000), 0, 0, 0);
    *cpu_begin = thread_cpu_seconds();
  };
  hooks.on_exit = [this, cpu_begin] {
    host_.log(PROF_LOG_INFO, "nic: " + std::to_string(thread_.ticks()) + " samples at " +
                                 std::to_string(frequency_hz_) + " Hz, " +
                                 std::to_string(thread_.missed()) + " missed, " +
                                 format_us(thread_cpu_seconds() - *cpu_begin) + " us of CPU");
  };
  thread_.start(
      period, [this] { sample_and_emit(); }, std::move(hooks));
  return true;
}

bool NicSource::stop() {
  thread_.stop();
  return true;
}

bool NicSource::suspend() {
  thread_.set_paused(true);
  return true;
}

bool NicSource::resume() {
  {
    // A rate across the pause would blur it into one long tick.
    std::lock_guard lock(sample_mutex_);
    if (sampler_) sampler_->reset();
  }
  thread_.set_paused(false);
  return true;
}

bool NicSource::flush() {
  if (sampler_) sample_and_emit();
  return true;
}

void NicSource::sample_and_emit() {
  std::lock_guard lock(sample_mutex_);
  const uint64_t now = host_.now();
  sampler_->take(now, metrics_);
  for (const DeviceMetrics &device : metrics_)
    tracks_->emit(device, now);
}

} // namespace prof::nic
