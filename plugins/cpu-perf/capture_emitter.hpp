// Emits decoded records through the host while the capture runs: process
// and thread tracks, symbolized samples, thread-state slices, CPU rows and
// counter values.
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
                 Symbolizer &symbolizer, const ThreadTable &threads)
      : host_(host), options_(options), spaces_(spaces), symbolizer_(symbolizer),
        threads_table_(threads) {}

  /// Emits what `pending` holds for threads whose track is declared, and
  /// everything up to `cutoff`, and removes it; the rest waits. A thread's
  /// track is declared at its first event with the name the thread has
  /// then, so the caller holds a new thread's events back a while: a new
  /// thread names itself just after it starts.
  void emit(Capture &pending, uint64_t cutoff = UINT64_MAX);
  /// Events emitted so far.
  uint64_t emitted() const { return emitted_; }
  /// The name of one frame (exposed for tests).
  std::string frame_name(const Frame &frame);

private:
  prof_track_id thread_track(int32_t pid, int32_t tid);
  std::string thread_name(int32_t tid, const char *what) const;
  void emit_sample(const Sample &sample);
  void emit_state(const StateSlice &slice);
  void emit_counter(const CounterValue &value);
  prof_track_id cpu_track(int32_t cpu);
  prof_string_id frame_id(const Frame &frame);
  void pace();

  const Host &host_;
  const CpuPerfOptions &options_;
  const AddressSpaces &spaces_;
  Symbolizer &symbolizer_;
  const ThreadTable &threads_table_;
  std::map<int32_t, prof_track_id> processes_, threads_, cpus_;
  std::map<Frame, prof_string_id> frames_;
  std::map<int32_t, prof_string_id> cpu_slice_names_; ///< by tid
  std::map<std::pair<int32_t, size_t>, prof_track_id> counter_tracks_;
  prof_string_id state_category_ = 0, cpu_category_ = 0, state_names_[3] = {};
  std::vector<prof_string_id> ids_; ///< one sample's frames
  uint64_t emitted_ = 0;
};

} // namespace prof::cpu_perf

#endif
