#include "cpu_perf_source.hpp"

#include <unistd.h>

#include <chrono>
#include <ctime>
#include <unordered_map>
#include <utility>

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

namespace {
// A record reaches its ring a moment after the kernel stamps it: records up
// to this long before a copy began may still arrive in the next one.
constexpr uint64_t kWriteDelayNs = 10'000'000;
// Events wait this long before they are emitted, so that a new thread has
// named itself before its track is declared.
constexpr uint64_t kNameDelayNs = 1'000'000'000;
// Raw records (a DWARF sample is its stack copy, 16 KiB by default) are
// decoded every round, or sooner once they reach the wake mark; past the
// limit the kernel loses records (counted) rather than prof growing.
constexpr auto kRoundPeriod = std::chrono::milliseconds(100);
constexpr size_t kRawWakeBytes = 1u << 20;
constexpr size_t kRawLimitBytes = 6u << 20;
} // namespace

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
  std::unordered_map<uint64_t, size_t> counter_ids; // kernel event id -> counter
  for (const CounterFd &c : events_.counter_fds())
    counter_ids[c.id] = c.counter;
  pipeline_ = std::make_unique<Pipeline>(host_, *options_, events_.layout());
  pipeline_->processor.seed(snapshot_);
  pipeline_->processor.set_counter_ids(std::move(counter_ids));
  std::vector<PerfRing *> rings;
  for (auto &ring : events_.rings()) rings.push_back(ring.get());
  reader_.clear();
  reader_.set_limits(kRawWakeBytes, kRawLimitBytes, [this] {
    {
      std::lock_guard lock(pipeline_mutex_);
      pipeline_filled_ = true;
    }
    pipeline_wake_.notify_one();
  });
  reader_.start(events_.fds(), rings, events_.layout());
  totals_.clear();
  begin_ = host_.now();
  pipeline_->processor.begin(begin_);
  pipeline_stopping_ = false;
  pipeline_filled_ = false;
  pipeline_thread_ = std::thread([this] { run_pipeline(); });
  events_.enable();
  running_ = true;
  pending_ = true;
  return true;
}

void CpuPerfSource::run_pipeline() {
  std::unique_lock lock(pipeline_mutex_);
  while (!pipeline_stopping_) {
    pipeline_wake_.wait_for(lock, kRoundPeriod,
                            [this] { return pipeline_stopping_ || pipeline_filled_; });
    if (pipeline_stopping_) break;
    pipeline_filled_ = false;
    lock.unlock();
    decode_round();
    lock.lock();
  }
}

void CpuPerfSource::decode_round() {
  std::vector<std::vector<uint8_t>> &raw = pipeline_->raw;
  const uint64_t copied_at = reader_.take(raw);
  const uint64_t limit = copied_at > kWriteDelayNs ? copied_at - kWriteDelayNs : 0;
  Capture batch;
  pipeline_->processor.feed(raw, limit, batch);
  add_decoded(std::move(batch));
  pipeline_->emitter.emit(pipeline_->pending, limit > kNameDelayNs ? limit - kNameDelayNs : 0);
}

void CpuPerfSource::add_decoded(Capture &&batch) {
  Pipeline &p = *pipeline_;
  for (const CounterValue &v : batch.counters)
    if (v.tid != pid_) p.thread_sums[v.counter] += v.value;
  p.samples += batch.samples.size();
  p.lost_records += std::exchange(batch.lost_records, 0);
  p.lost_samples += std::exchange(batch.lost_samples, 0);
  p.bad_records += std::exchange(batch.bad_records, 0);
  p.pending.append(std::move(batch));
}

bool CpuPerfSource::stop() {
  if (!running_) return true;
  events_.disable();
  end_ = host_.now();
  reader_.stop();
  {
    std::lock_guard lock(pipeline_mutex_);
    pipeline_stopping_ = true;
  }
  pipeline_wake_.notify_all();
  if (pipeline_thread_.joinable()) pipeline_thread_.join();
  read_counter_totals();
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

void CpuPerfSource::finish_capture() {
  Pipeline &p = *pipeline_;
  reader_.take(p.raw);
  Capture batch;
  p.processor.finish(end_, p.raw, batch);
  add_decoded(std::move(batch));
  // The root thread's own count: the total less what its descendants reported.
  for (const CounterValue &total : totals_) {
    const uint64_t others = p.thread_sums[total.counter];
    p.pending.counters.push_back(total);
    if (pid_ > 0 && total.value >= others)
      p.pending.counters.push_back({pid_, pid_, total.counter, end_, total.value - others});
  }
  p.emitter.emit(p.pending);
}

bool CpuPerfSource::flush() {
  if (!pending_ || running_) return true;
  pending_ = false;
  finish_capture();
  const Pipeline &p = *pipeline_;
  host_.count_dropped(PROF_DROP_KERNEL_LOST, p.lost_records + p.lost_samples);
  if (p.lost_records > 0 || p.lost_samples > 0)
    host_.log(PROF_LOG_WARN, "cpu-perf: the kernel lost " + std::to_string(p.lost_records) +
                                 " records and " + std::to_string(p.lost_samples) +
                                 " samples (perf ring buffers were full); lower the frequency");
  if (p.bad_records > 0)
    host_.log(PROF_LOG_WARN, "cpu-perf: " + std::to_string(p.bad_records) +
                                 " malformed perf records were skipped");
  host_.log(PROF_LOG_DEBUG, "cpu-perf: " + std::to_string(p.samples) + " samples, " +
                                std::to_string(p.emitter.emitted()) + " events");
  pipeline_.reset();
  reader_.clear();
  return true;
}

} // namespace prof::cpu_perf
