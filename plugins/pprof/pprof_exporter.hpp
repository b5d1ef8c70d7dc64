// The pprof exporter: the capture's CPU samples, its heap profile's call
// stacks and its device kernels under the calls that launched them, as one
// gzipped profile.proto for `go tool pprof`, Pyroscope and Parca, with
// labels for host, rank, process, thread, device and training step.
#ifndef PROF_PLUGINS_PPROF_PPROF_EXPORTER_HPP
#define PROF_PLUGINS_PPROF_PPROF_EXPORTER_HPP

#include "device_launches.hpp"
#include "profile_builder.hpp"
#include "profile_windows.hpp"

#include <prof/output/exporter_output.hpp>
#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <vector>

namespace prof::pprof {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.pb.gz"},
    output::kOverwriteOption,
    {"profile", PROF_OPTION_ENUM, "all", 0, -1, "all,cpu,heap,device",
     "what to write: CPU samples, heap stacks and device kernels under the stacks that "
     "launched them (all, as the report holds them), or one of them"},
    {"rotate", PROF_OPTION_INT, "0", 0, 31536000, nullptr,
     "also one profile per this many seconds of the capture, PATH-0.pb.gz, PATH-1.pb.gz, "
     "... (0: none)"},
    {"per-step", PROF_OPTION_BOOL, "false", 0, -1, nullptr,
     "also one profile of CPU samples per training step, PATH-step7.pb.gz, ..."},
};

/// What a folder given as `path` receives: prof-<pid>.pb.gz.
inline constexpr const char *kExtension = ".pb.gz";

class PprofExporter {
public:
  explicit PprofExporter(ExportHost host) : host_(host), file_(host, "pprof", kExtension) {}
  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

private:
  struct CpuSample {
    uint64_t ts = 0;
    prof_track_id track = 0;
    prof_stack_id stack = 0;
  };
  struct StepWindow {
    uint64_t begin = 0, end = 0, step = 0;
  };
  struct HeapStack {
    prof_track_id process = 0;
    prof_stack_id stack = 0;
    bool peak = false; ///< at the peak, else live at the end
    uint64_t bytes = 0, blocks = 0;
    uint64_t ts = 0;
  };

  /// The profile of what falls in `window`, serialized; `samples` receives
  /// its number of pprof samples.
  std::string build_profile(const ProfileWindow &window, int64_t period, uint64_t &samples) const;
  void add_cpu_samples(ProfileBuilder &profile, size_t first_value, int64_t period,
                       const ProfileWindow &window) const;
  void add_heap_stacks(ProfileBuilder &profile, size_t first_value,
                       const ProfileWindow &window) const;
  void add_kernels(ProfileBuilder &profile, size_t first_value, int64_t period,
                   const ProfileWindow &window) const;
  /// The launching thread's stack: its latest CPU sample at or before the
  /// call's end and at most one sampling period before its begin; 0 none.
  /// (Not osrt's stacks: those are of blocking calls, not of the launch.)
  prof_stack_id stack_at_call(const LaunchCall &call, int64_t period) const;
  /// Writes one gzipped profile per window with samples, and the whole one
  /// at PATH; false, logged, on failure (and nothing is left).
  bool write_windows(const std::vector<ProfileWindow> &windows, int64_t period);
  std::vector<uint64_t> locations(ProfileBuilder &profile, prof_stack_id stack) const;
  std::vector<SampleLabel> common_labels() const;
  /// The step whose window holds `ts` in process `pid`, or -1.
  int64_t step_at(int32_t pid, uint64_t ts) const;

  ExportHost host_;
  output::ExporterOutput file_;
  bool want_cpu_ = true, want_heap_ = true, want_device_ = true;
  uint64_t rotate_ns_ = 0; ///< rotate's window, 0: none
  bool per_step_ = false;
  bool overwrite_ = false;
  std::vector<CpuSample> cpu_samples_;
  std::map<int32_t, std::vector<StepWindow>> steps_; ///< by pid, sorted at end()
  std::vector<HeapStack> heap_stacks_;
  DeviceLaunches launches_;
  /// CPU samples (ts, stack) by thread, in time order: made by end().
  std::map<prof_track_id, std::vector<std::pair<uint64_t, prof_stack_id>>> samples_by_thread_;
  uint64_t first_ts_ = UINT64_MAX, last_ts_ = 0;
};

/// Nanoseconds of CPU time between two CPU samples, from the capture's
/// plugin lines (prof_session_info::plugins): the python source's frequency
/// when it sampled, else cpu-perf's period or frequency; 0 when unknown.
int64_t sampling_period_ns(std::string_view plugins);

} // namespace prof::pprof

#endif
