// The cpu-perf source: perf_event sampling and context switches of the
// profiled process tree (or the whole system), decoded, symbolized and
// emitted while the capture runs, so that prof's memory does not grow with
// the capture's length.
#ifndef PROF_PLUGINS_CPU_PERF_SOURCE_HPP
#define PROF_PLUGINS_CPU_PERF_SOURCE_HPP

#include "address_spaces.hpp"
#include "capture.hpp"
#include "capture_emitter.hpp"
#include "cpu_perf_options.hpp"
#include "perf_event_set.hpp"
#include "record_processor.hpp"
#include "ring_reader.hpp"
#include "symbolizer.hpp"

#include <prof/plugin.hpp>

#include <condition_variable>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <unordered_map>

namespace prof::cpu_perf {

class CpuPerfSource {
public:
  explicit CpuPerfSource(Host host) : host_(host) {}
  ~CpuPerfSource();

  bool configure();
  bool start();
  bool stop();
  bool suspend();
  bool resume();
  bool flush();

private:
  /// Decoding and emitting, from start() to stop(), on its own thread.
  struct Pipeline {
    Pipeline(const Host &host, const CpuPerfOptions &options, const RecordLayout &layout)
        : processor(options, layout, spaces, symbolizer),
          emitter(host, options, spaces, symbolizer, processor.threads()) {}
    AddressSpaces spaces;
    Symbolizer symbolizer;
    RecordProcessor processor;
    CaptureEmitter emitter;
    std::vector<std::vector<uint8_t>> raw;            ///< the round's records, per ring
    Capture pending;                                  ///< decoded, not yet emitted
    std::unordered_map<size_t, uint64_t> thread_sums; ///< exited threads' counts by counter
    uint64_t lost_records = 0, lost_samples = 0, bad_records = 0, samples = 0;
  };
  void run_pipeline();
  void decode_round();
  void add_decoded(Capture &&batch);
  void finish_capture();
  void read_counter_totals();

  Host host_;
  std::optional<CpuPerfOptions> options_;
  int pid_ = -1; ///< the target, -1 system-wide
  PerfEventSet events_;
  RingReader reader_;
  ProcessSnapshot snapshot_;
  std::vector<CounterValue> totals_;
  uint64_t begin_ = 0, end_ = 0;
  std::unique_ptr<Pipeline> pipeline_;
  std::thread pipeline_thread_;
  std::mutex pipeline_mutex_;
  std::condition_variable pipeline_wake_;
  bool pipeline_stopping_ = false;
  bool pipeline_filled_ = false; ///< the reader holds enough for a round
  bool running_ = false;
  bool pending_ = false; ///< a stopped capture waits for flush()
};

} // namespace prof::cpu_perf

#endif
