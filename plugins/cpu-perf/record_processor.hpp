// Walks the raw records of all rings in time order and builds a Capture:
// keeps the address spaces current, locates (and for dwarf, unwinds) each
// sample's frames at the moment it was taken, and feeds the thread states.
#ifndef PROF_PLUGINS_CPU_PERF_RECORD_PROCESSOR_HPP
#define PROF_PLUGINS_CPU_PERF_RECORD_PROCESSOR_HPP

#include "address_spaces.hpp"
#include "capture.hpp"
#include "cpu_perf_options.hpp"
#include "perf_records.hpp"
#include "symbolizer.hpp"

#include <span>
#include <unordered_map>
#include <vector>

namespace prof::cpu_perf {

class RecordProcessor {
public:
  RecordProcessor(const CpuPerfOptions &options, const RecordLayout &layout,
                  AddressSpaces &spaces, Symbolizer &symbolizer)
      : options_(options), layout_(layout), spaces_(spaces), symbolizer_(symbolizer) {}

  /// Seeds the address spaces and names with what /proc showed at start.
  void seed(const ProcessSnapshot &snapshot);
  /// Maps kernel counter event ids to counter indexes (READ records).
  void set_counter_ids(std::unordered_map<uint64_t, size_t> ids) { counter_ids_ = std::move(ids); }
  /// Decodes every record of `stores` (one byte stream per ring).
  Capture process(const std::vector<std::vector<uint8_t>> &stores, uint64_t begin, uint64_t end);

private:
  void on_sample(const RawRecord &r, Capture &out);
  void add_frame(std::vector<Frame> &frames, int32_t pid, uint64_t addr, bool kernel,
                 bool return_address);
  void unwind_user(const SampleRecord &s, std::vector<Frame> &frames);

  const CpuPerfOptions &options_;
  RecordLayout layout_;
  AddressSpaces &spaces_;
  Symbolizer &symbolizer_;
  std::unordered_map<uint64_t, size_t> counter_ids_;
  std::map<int32_t, ThreadInfo> seeded_threads_;
};

} // namespace prof::cpu_perf

#endif
