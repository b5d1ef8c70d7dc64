#include "python_source.hpp"

#include <sys/prctl.h>
#include <unistd.h>

#include <chrono>

namespace prof::python {
namespace {

constexpr auto kDrainPeriod = std::chrono::milliseconds(10);
constexpr int kTicksPerThreadScan = 10;
constexpr auto kBeginTimeout = std::chrono::seconds(1);

} // namespace

bool PythonSource::configure() {
  sampling_ = host_.option_bool("sampling", true);
  frequency_ = static_cast<int>(host_.option_int("frequency", 100));
  depth_ = static_cast<int>(host_.option_int("depth", 64));
  if (frequency_ < 1 || frequency_ > 10000) {
    host_.error("python: frequency must be 1..10000 Hz, got " + std::to_string(frequency_));
    return false;
  }
  if (depth_ < 1 || depth_ > kMaxNativeFrames) {
    host_.error("python: depth must be 1.." + std::to_string(kMaxNativeFrames) + ", got " +
                std::to_string(depth_));
    return false;
  }
  return true;
}

bool PythonSource::start() {
  if (!sampling_ || sampler_) return true;
  RuntimeLookup lookup = find_python_runtime();
  if (!lookup.problem.empty()) host_.log(PROF_LOG_WARN, "python: " + lookup.problem);
  if (!lookup.runtime) return true; // not a Python process: cpu-perf samples it
  runtime_ = lookup.runtime;
  owner_pid_ = getpid();
  worker_ = std::make_unique<PeriodicThread>();
  worker_->start(kDrainPeriod, [this] { tick(); }, {.on_start = [this] { begin_on_worker(); }});
  // Until the worker has its name, cpu-perf samples this process too: the
  // application starts its Python after that, not during it.
  std::unique_lock lock(mutex_);
  begun_.wait_for(lock, kBeginTimeout, [this] { return worker_begun_; });
  return true;
}

// The worker takes its name, which tells cpu-perf to leave this process
// alone, once the signal is ours and before any thread is sampled.
void PythonSource::begin_on_worker() {
  auto sampler = std::make_unique<ThreadSampler>(&*runtime_, frequency_, depth_, gettid());
  const auto name_worker = [] { prctl(PR_SET_NAME, kWorkerThreadName); };
  const std::string problem = sampler->start(name_worker);
  if (!problem.empty()) host_.log(PROF_LOG_WARN, "python: " + problem);
  std::lock_guard lock(mutex_);
  if (problem.empty()) {
    emitter_ = std::make_unique<SampleEmitter>(host_, *runtime_);
    sampler_ = std::move(sampler);
  }
  worker_begun_ = true;
  begun_.notify_all();
}

void PythonSource::tick() {
  std::lock_guard lock(mutex_);
  if (!sampler_) return;
  if (++ticks_ % kTicksPerThreadScan == 0) sampler_->refresh_threads();
  drain();
}

void PythonSource::drain() {
  sampler_->drain([this](int tid, const SampleRecord &record) { emitter_->emit(tid, record); });
  dropped_ += sampler_->take_dropped();
}

bool PythonSource::stop() {
  if (owner_pid_ != 0 && getpid() != owner_pid_) {
    // A forked child's copy: its worker thread does not exist here, so it
    // cannot be joined, nor its sampler stopped. Let go of them unreleased.
    (void)worker_.release();
    (void)sampler_.release();
    (void)emitter_.release();
    owner_pid_ = 0;
    return true;
  }
  if (worker_) worker_->stop();
  std::lock_guard lock(mutex_);
  if (!sampler_) return true;
  sampler_->stop();
  drain();
  if (dropped_ > 0)
    host_.log(PROF_LOG_WARN, "python: " + std::to_string(dropped_) +
                                 " samples were lost: the worker fell behind the sampled threads");
  if (!sampler_->timer_reason().empty())
    host_.log(PROF_LOG_WARN, "python: " + sampler_->timer_reason() +
                                 "; some threads were sampled by POSIX CPU timers instead, at "
                                 "most at the kernel's tick rate (often 250 Hz)");
  if (const uint64_t unsampled = sampler_->unsampled_threads(); unsampled > 0)
    host_.log(PROF_LOG_WARN, "python: " + std::to_string(unsampled) +
                                 " threads were not sampled (more than 1024 at once)");
  sampler_.reset();
  emitter_.reset();
  return true;
}

bool PythonSource::suspend() {
  std::lock_guard lock(mutex_);
  if (sampler_) sampler_->stop();
  return true;
}

bool PythonSource::resume() {
  std::lock_guard lock(mutex_);
  if (sampler_) sampler_->start();
  return true;
}

} // namespace prof::python
