// The python source (process scope): in a process running CPython 3.11 to
// 3.13 it samples every thread on its CPU clock and emits CPU samples whose
// stacks carry the Python frames "function (file:line)" where the native
// stack shows the interpreter's evaluation loop. In other processes it does
// nothing, or with the option `native` samples them the same way with their
// native frames (prof asks for that when a Python program's whole tree is
// this source's to sample, so that no thread pays for two timers). Its
// worker thread is named "prof-python": cpu-perf leaves the samples of a
// process with that thread to it. A child forked from a Python
// process (a DataLoader worker) starts its own worker.
// With the option `functions` it also traces the calls of listed Python
// functions as annotation ranges (function_ranges.hpp), in every Python
// program of the process tree.
#ifndef PROF_PLUGINS_PYTHON_PYTHON_SOURCE_HPP
#define PROF_PLUGINS_PYTHON_PYTHON_SOURCE_HPP

#include "function_ranges.hpp"
#include "sample_emitter.hpp"
#include "thread_sampler.hpp"
#include <prof/python/python_runtime.hpp>

#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>

namespace prof::python {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"sampling", PROF_OPTION_BOOL, "true", 0, -1, nullptr,
     "sample Python processes with their Python frames (--python-sampling)"},
    {"native", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "sample the processes that run no CPython too, with native frames: prof sets it when "
     "the application is a Python program and this source samples its whole tree"},
    {"frequency", PROF_OPTION_INT, "100", 1, 10000, nullptr,
     "samples per second of CPU time per thread (--sampling-frequency)"},
    {"depth", PROF_OPTION_INT, "64", 1, 128, nullptr, "most native frames per sampled stack"},
    {"functions", PROF_OPTION_STRING, "", 0, 0, nullptr,
     "Python functions whose calls become annotation ranges (--python-functions-trace): "
     "pytorch, MODULE:QUALNAME or MODULE:* with an optional @DOMAIN, separated by ';'"},
    {"threshold", PROF_OPTION_INT, "0", 0, 3600000000000LL, nullptr,
     "traced calls shorter than this many nanoseconds are left out "
     "(--python-functions-threshold)"},
};

/// The name of the worker thread, which tells cpu-perf who samples.
inline constexpr const char *kWorkerThreadName = "prof-python";

class PythonSource {
public:
  explicit PythonSource(Host host) : host_(host) {}
  ~PythonSource() { stop(); }
  PythonSource(const PythonSource &) = delete;
  PythonSource &operator=(const PythonSource &) = delete;

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush() { return true; }
  /// The traced functions open now on every thread, as unfinished slices
  /// (flight-recorder dumps).
  bool emit_unfinished(uint64_t now) {
    if (tracing_functions_) function_recorder_->emit_unfinished(now);
    return true;
  }

private:
  /// What the worker and stop() share; a forked child makes new ones (the
  /// parent's may have been held by a thread the child does not have).
  struct WorkerSync {
    std::mutex mutex; ///< sampler_ and emitter_, between the worker and stop()
    std::condition_variable begun;
    bool worker_begun = false;
  };
  static void restart_in_forked_child();
  bool start_sampling();
  void start_function_trace();
  void start_worker();
  void begin_on_worker();
  void tick();
  void drain();

  Host host_;
  bool sampling_ = true;
  bool native_ = false; ///< sample processes without CPython too
  std::string functions_;
  uint64_t threshold_ns_ = 0;
  /// Never freed: Python may still call a wrapper after stop().
  annotations::AnnotationRecorder *function_recorder_ = nullptr;
  bool tracing_functions_ = false; ///< its recorder is the one the wrappers call now
  int frequency_ = 100;
  int depth_ = 64;
  std::optional<PythonRuntime> runtime_;
  std::unique_ptr<WorkerSync> sync_ = std::make_unique<WorkerSync>();
  std::unique_ptr<ThreadSampler> sampler_;
  std::unique_ptr<SampleEmitter> emitter_;
  std::unique_ptr<PeriodicThread> worker_;
  int ticks_ = 0;
  uint64_t dropped_ = 0;
};

} // namespace prof::python

#endif
