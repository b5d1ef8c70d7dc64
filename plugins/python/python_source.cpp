#include "python_source.hpp"

#include <prof/declared_options.hpp>
#include <prof/tsc_clock.hpp>

#include <pthread.h>
#include <sys/prctl.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>

namespace prof::python {
namespace {

constexpr auto kDrainPeriod = std::chrono::milliseconds(10);
constexpr int kTicksPerThreadScan = 10;
constexpr auto kBeginTimeout = std::chrono::seconds(1);

std::atomic<PythonSource *> g_running{nullptr}; ///< the instance sampling this process

} // namespace

bool PythonSource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  sampling_ = declared.flag("sampling");
  native_ = declared.flag("native");
  frequency_ = static_cast<int>(declared.integer("frequency"));
  depth_ = static_cast<int>(declared.integer("depth"));
  functions_ = std::string(declared.text("functions"));
  threshold_ns_ = static_cast<uint64_t>(std::max(0LL, declared.integer("threshold")));
  if (std::string problem; !functions_.empty() && !valid_function_list(functions_, problem)) {
    host_.error("option functions: " + problem);
    return false;
  }
  if (frequency_ < 1 || frequency_ > 10000) {
    host_.error("frequency must be 1..10000 Hz, got " + std::to_string(frequency_));
    return false;
  }
  if (depth_ < 1 || depth_ > kMaxNativeFrames) {
    host_.error("depth must be 1.." + std::to_string(kMaxNativeFrames) + ", got " +
                std::to_string(depth_));
    return false;
  }
  return true;
}

bool PythonSource::start() {
  if (!functions_.empty()) start_function_trace();
  return start_sampling();
}

void PythonSource::start_function_trace() {
  // Every range costs two timestamps: the TSC's where it can stand in for the session clock.
  TscClock::enable();
  if (function_recorder_ == nullptr)
    function_recorder_ = annotations::new_lasting_recorder(host_, "python");
  function_recorder_->set_min_duration(threshold_ns_);
  set_function_recorder(function_recorder_);
  tracing_functions_ = true;
  if (const std::string problem = point_python_at_function_trace(functions_); !problem.empty())
    host_.log(PROF_LOG_WARN, problem);
}

bool PythonSource::start_sampling() {
  if (!sampling_ || sampler_) return true;
  RuntimeLookup lookup = find_python_runtime();
  if (!lookup.problem.empty()) host_.log(PROF_LOG_WARN, lookup.problem);
  if (!lookup.runtime && !native_) return true; // not a Python process: cpu-perf samples it
  runtime_ = lookup.runtime;
  static const bool at_fork = pthread_atfork(nullptr, nullptr, &restart_in_forked_child) == 0;
  (void)at_fork;
  g_running.store(this);
  start_worker();
  // Until the worker has its name, cpu-perf samples this process too: the
  // application starts its Python after that, not during it.
  std::unique_lock lock(sync_->mutex);
  sync_->begun.wait_for(lock, kBeginTimeout, [this] { return sync_->worker_begun; });
  return true;
}

void PythonSource::start_worker() {
  worker_ = std::make_unique<PeriodicThread>();
  worker_->start(kDrainPeriod, [this] { tick(); }, {.on_start = [this] { begin_on_worker(); }});
}

// In the child of a fork (the agent's own handler, registered earlier, has
// given the child its rings): the parent's worker, sampler and emitter are
// copies whose threads and timers are not here. Let go of them unreleased
// and start again; nothing here waits, as the child may exec at once.
void PythonSource::restart_in_forked_child() {
  PythonSource *source = g_running.load();
  if (source == nullptr) return;
  ThreadSampler::forget_after_fork();
  (void)source->worker_.release();
  (void)source->sampler_.release();
  (void)source->emitter_.release();
  (void)source->sync_.release();
  source->sync_ = std::make_unique<WorkerSync>();
  source->ticks_ = 0;
  source->dropped_ = 0;
  source->start_worker();
}

// The worker takes its name, which tells cpu-perf to leave this process
// alone, once the signal is ours and before any thread is sampled.
void PythonSource::begin_on_worker() {
  const PythonRuntime *python = runtime_ ? &*runtime_ : nullptr;
  auto sampler = std::make_unique<ThreadSampler>(python, frequency_, depth_, gettid());
  const auto name_worker = [] { prctl(PR_SET_NAME, kWorkerThreadName); };
  const std::string problem = sampler->start(name_worker);
  if (!problem.empty()) host_.log(PROF_LOG_WARN, problem);
  std::lock_guard lock(sync_->mutex);
  if (problem.empty()) {
    emitter_ = std::make_unique<SampleEmitter>(host_, python);
    sampler_ = std::move(sampler);
  }
  sync_->worker_begun = true;
  sync_->begun.notify_all();
}

void PythonSource::tick() {
  std::lock_guard lock(sync_->mutex);
  if (!sampler_) return;
  if (++ticks_ % kTicksPerThreadScan == 0) sampler_->refresh_threads();
  drain();
}

void PythonSource::drain() {
  sampler_->drain([this](int tid, const SampleRecord &record) { emitter_->emit(tid, record); });
  dropped_ += sampler_->take_dropped();
}

bool PythonSource::stop() {
  if (function_recorder_ != nullptr) set_function_recorder(nullptr);
  tracing_functions_ = false;
  PythonSource *self = this;
  g_running.compare_exchange_strong(self, nullptr);
  if (worker_) worker_->stop();
  std::lock_guard lock(sync_->mutex);
  if (!sampler_) return true;
  sampler_->stop();
  drain();
  if (dropped_ > 0)
    host_.log(PROF_LOG_WARN, std::to_string(dropped_) +
                                 " samples were lost: the worker fell behind the sampled threads");
  if (!sampler_->timer_reason().empty())
    host_.log(PROF_LOG_WARN, sampler_->timer_reason() +
                                 "; some threads were sampled by POSIX CPU timers instead, at "
                                 "most at the kernel's tick rate (often 250 Hz)");
  if (const uint64_t unsampled = sampler_->unsampled_threads(); unsampled > 0)
    host_.log(PROF_LOG_WARN,
              std::to_string(unsampled) + " threads were not sampled (more than 1024 at once)");
  sampler_.reset();
  emitter_.reset();
  return true;
}

bool PythonSource::suspend() {
  if (function_recorder_ != nullptr) set_function_recorder(nullptr);
  tracing_functions_ = false;
  std::lock_guard lock(sync_->mutex);
  if (sampler_) sampler_->stop();
  return true;
}

bool PythonSource::resume() {
  if (function_recorder_ != nullptr) set_function_recorder(function_recorder_);
  tracing_functions_ = function_recorder_ != nullptr;
  std::lock_guard lock(sync_->mutex);
  if (sampler_) sampler_->start();
  return true;
}

} // namespace prof::python
