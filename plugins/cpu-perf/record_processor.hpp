// Walks the raw records of all rings in time order, a batch at a time while
// the capture runs: keeps the address spaces and thread names current,
// locates (and for dwarf, unwinds) each sample's frames at the moment it was
// taken, and feeds the thread states. A raw record is kept only until its
// batch is decoded, so memory follows the batch, not the capture's length.
#ifndef PROF_PLUGINS_CPU_PERF_RECORD_PROCESSOR_HPP
#define PROF_PLUGINS_CPU_PERF_RECORD_PROCESSOR_HPP

#include "address_spaces.hpp"
#include "capture.hpp"
#include "cpu_perf_options.hpp"
#include "perf_records.hpp"
#include "symbolizer.hpp"
#include "thread_states.hpp"

#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace prof::cpu_perf {

/// A process with a thread of this name samples itself (the python source,
/// which adds Python frames): its samples from then on are left to it, so
/// that no thread is sampled twice.
inline constexpr std::string_view kInProcessSamplerThread = "prof-python";

class RecordProcessor {
public:
  RecordProcessor(const CpuPerfOptions &options, const RecordLayout &layout,
                  AddressSpaces &spaces, Symbolizer &symbolizer)
      : options_(options), layout_(layout), spaces_(spaces), symbolizer_(symbolizer) {}

  /// Seeds the address spaces and names with what /proc showed at start.
  void seed(const ProcessSnapshot &snapshot);
  /// Maps kernel counter event ids to counter indexes (READ records).
  void set_counter_ids(std::unordered_map<uint64_t, size_t> ids) { counter_ids_ = std::move(ids); }
  /// Starts a capture that began at `begin`.
  void begin(uint64_t begin);
  /// Decodes the records of `stores` (one byte stream per ring) and those
  /// kept from earlier calls, in time order, up to and including `limit`;
  /// later ones are kept for the next call. Adds what they yield to `out`.
  void feed(const std::vector<std::vector<uint8_t>> &stores, uint64_t limit, Capture &out);
  /// Decodes the last `stores` and everything still kept, and closes the
  /// thread states at `end`.
  void finish(uint64_t end, const std::vector<std::vector<uint8_t>> &stores, Capture &out);
  /// Every thread seen so far, named as it is now.
  const ThreadTable &threads() const { return threads_; }

private:
  void on_record(uint64_t time, const RawRecord &r, Capture &out);
  void on_sample(const RawRecord &r, Capture &out);
  void add_frame(std::vector<Frame> &frames, int32_t pid, uint64_t addr, bool kernel,
                 bool return_address);
  void unwind_user(const SampleRecord &s, std::vector<Frame> &frames);

  const CpuPerfOptions &options_;
  RecordLayout layout_;
  AddressSpaces &spaces_;
  Symbolizer &symbolizer_;
  std::unordered_map<uint64_t, size_t> counter_ids_;
  ThreadTable threads_;
  ThreadStates states_{0};
  std::vector<uint8_t> kept_; ///< records later than the last limit
  /// Processes whose own sampler took over (see kInProcessSamplerThread).
  std::unordered_set<int32_t> sampled_inside_;
};

} // namespace prof::cpu_perf

#endif
