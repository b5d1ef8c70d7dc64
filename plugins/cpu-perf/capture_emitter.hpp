// Emits a decoded Capture through the host: process and thread tracks,
// symbolized samples, thread-state slices, CPU rows and counter values.
#ifndef PROF_PLUGINS_CPU_PERF_CAPTURE_EMITTER_HPP
#define PROF_PLUGINS_CPU_PERF_CAPTURE_EMITTER_HPP

#include "address_spaces.hpp"
#include "capture.hpp"
#include "cpu_perf_options.hpp"
#include "symbolizer.hpp"

#include <prof/plugin.hpp>

#include <map>
#include <unordered_map>

namespace prof::cpu_perf {

/// Category of the thread-state slices on thread tracks.
inline constexpr const char *kStateCategory = "thread-state";
/// Category of the slices on CPU rows.
inline constexpr const char *kCpuCategory = "cpu-schedule";

class CaptureEmitter {
public:
  CaptureEmitter(const Host &host, const CpuPerfOptions &options, const AddressSpaces &spaces,
                 Symbolizer &symbolizer)
      : host_(host), options_(options), spaces_(spaces), symbolizer_(symbolizer) {}

  /// Emits everything; returns the number of events emitted.
  uint64_t emit(const Capture &capture);
  /// The name of one frame (exposed for tests).
  std::string frame_name(const Frame &frame);

private:
  prof_track_id thread_track(const Capture &capture, int32_t pid, int32_t tid);
  prof_track_id cpu_track(int32_t cpu);
  prof_string_id frame_id(const Frame &frame);
  void pace();

  const Host &host_;
  const CpuPerfOptions &options_;
  const AddressSpaces &spaces_;
  Symbolizer &symbolizer_;
  std::map<int32_t, prof_track_id> processes_, threads_, cpus_;
  std::map<Frame, prof_string_id> frames_;
  uint64_t emitted_ = 0;
};

} // namespace prof::cpu_perf

#endif
