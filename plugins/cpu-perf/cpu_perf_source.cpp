#include "cpu_perf_source.hpp"

#include "capture_emitter.hpp"
#include "record_processor.hpp"
#include "symbolizer.hpp"

#include <unistd.h>

#include <unordered_map>

namespace prof::cpu_perf {

CpuPerfSource::~CpuPerfSource() { stop(); }

bool CpuPerfSource::configure() {
  if (running_) {
    host_.error("cpu-perf: configure while sampling; stop first");
    return false;
  }
  options_ = read_options(host_);
  if (!options_) return false;
  for (const auto &counter : options_->counters) {
    std::string message;
    if (!hardware_counter_supported(counter, message)) {
      host_.error(message);
      options_.reset();
      return false;
    }
  }
  if (options_->scope == Scope::SystemWide) {
    pid_ = -1;
  } else {
    pid_ = host_.session().target_pid;
    if (pid_ <= 0) {
      host_.error("cpu-perf: no target process to sample; give an application or use "
                  "scope=system-wide");
      options_.reset();
      return false;
    }
  }
  return true;
}

bool CpuPerfSource::start() {
  if (!options_) {
    host_.error("cpu-perf: start before a successful configure");
    return false;
  }
  if (running_) {
    host_.error("cpu-perf: already started");
    return false;
  }
  if (!events_.open(host_, *options_, pid_)) return false;
  snapshot_ = snapshot_processes(pid_ > 0 ? std::vector<int32_t>{pid_} : std::vector<int32_t>{});
  std::vector<PerfRing *> rings;
  for (auto &ring : events_.rings()) rings.push_back(ring.get());
  reader_.clear();
  reader_.start(events_.fds(), rings);
  totals_.clear();
  begin_ = host_.now();
  events_.enable();
  running_ = true;
  pending_ = true;
  return true;
}

bool CpuPerfSource::stop() {
  if (!running_) return true;
  events_.disable();
  end_ = host_.now();
  reader_.stop();
  read_counter_totals();
  counter_ids_.clear();
  for (const CounterFd &c : events_.counter_fds()) counter_ids_[c.id] = c.counter;
  events_.close();
  running_ = false;
  return true;
}

bool CpuPerfSource::suspend() {
  if (running_) events_.disable();
  return true;
}

bool CpuPerfSource::resume() {
  if (running_) events_.enable();
  return true;
}

void CpuPerfSource::read_counter_totals() {
  // With inherit, a counter's value is its task's count plus that of every
  // descendant that has exited: the whole tree once the tree is gone.
  std::unordered_map<size_t, uint64_t> sums;
  for (const CounterFd &c : events_.counter_fds()) {
    uint64_t value[2] = {0, 0};
    if (read(c.fd, value, sizeof value) == static_cast<ssize_t>(sizeof value))
      sums[c.counter] += value[0];
  }
  for (const auto &[counter, sum] : sums)
    totals_.push_back({pid_, 0, counter, end_, sum});
}

bool CpuPerfSource::flush() {
  if (!pending_ || running_) return true;
  pending_ = false;
  AddressSpaces spaces;
  Symbolizer symbolizer;
  RecordProcessor processor(*options_, events_.layout(), spaces, symbolizer);
  processor.seed(snapshot_);
  processor.set_counter_ids(counter_ids_);
  Capture capture = processor.process(reader_.stores(), begin_, end_);
  reader_.clear();

  // The root thread's own count: the total less what its descendants reported.
  for (const CounterValue &total : totals_) {
    uint64_t others = 0;
    for (const CounterValue &v : capture.counters)
      if (v.counter == total.counter && v.tid != pid_) others += v.value;
    capture.counters.push_back(total);
    if (pid_ > 0 && total.value >= others)
      capture.counters.push_back({pid_, pid_, total.counter, end_, total.value - others});
  }
  host_.count_dropped(PROF_DROP_KERNEL_LOST, capture.lost_records + capture.lost_samples);
  if (capture.lost_records > 0 || capture.lost_samples > 0)
    host_.log(PROF_LOG_WARN, "cpu-perf: the kernel lost " + std::to_string(capture.lost_records) +
                                 " records and " + std::to_string(capture.lost_samples) +
                                 " samples (perf ring buffers were full); lower the frequency");
  if (capture.bad_records > 0)
    host_.log(PROF_LOG_WARN, "cpu-perf: " + std::to_string(capture.bad_records) +
                                 " malformed perf records were skipped");
  CaptureEmitter emitter(host_, *options_, spaces, symbolizer);
  emitter.emit(capture);
  host_.log(PROF_LOG_DEBUG, "cpu-perf: " + std::to_string(capture.samples.size()) + " samples, " +
                                std::to_string(capture.states.size()) + " state slices");
  return true;
}

} // namespace prof::cpu_perf
