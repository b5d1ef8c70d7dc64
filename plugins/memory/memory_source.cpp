#include "memory_source.hpp"

#include "allocator_hooks.hpp"
#include "prof_code.hpp"
#include "stack_sampler.hpp"

#include <prof/declared_options.hpp>
#include <prof/stacks/address_name.hpp>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <new>
#include <string_view>
#include <thread>
#include <unordered_map>

namespace prof::memory {
namespace {

uint64_t rss_bytes() {
  long pages = 0, resident = 0;
  if (FILE *file = std::fopen("/proc/self/statm", "re")) {
    if (std::fscanf(file, "%ld %ld", &pages, &resident) != 2) resident = 0;
    std::fclose(file);
  }
  return static_cast<uint64_t>(resident) * static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
}

std::string size_class_name(int k) {
  const uint64_t top = uint64_t{16} << k;
  if (k + 1 == kSizeClasses) return "> " + std::to_string(top >> 1 >> 30) + " GiB";
  if (top < 1024) return "<= " + std::to_string(top) + " B";
  if (top < (1 << 20)) return "<= " + std::to_string(top >> 10) + " KiB";
  if (top < (uint64_t{1} << 30)) return "<= " + std::to_string(top >> 20) + " MiB";
  return "<= " + std::to_string(top >> 30) + " GiB";
}

std::atomic<MemorySource *> g_running{nullptr}; ///< the started instance of this process

} // namespace

std::vector<SiteBytes> heap_by_site(const HeapTable &heap, HeapMoment moment, size_t limit) {
  const NotAccounted not_accounted; // prof's own maps are not the program's heap
  // A site's rows (one per lane) summed: a block may be freed in another lane.
  std::unordered_map<uintptr_t, LedgerValue> by_site;
  heap.ledger().for_each_site([&](uintptr_t site, const LedgerValue &now, const LedgerValue &peak) {
    by_site[site] += moment == HeapMoment::peak ? peak : now;
  });
  // prof's own blocks, as one row: those the hooks knew as prof's, and those
  // of prof's libraries loaded since the hooks last looked
  std::vector<SiteBytes> sites;
  SiteBytes prof_own{kProfSite, 0, 0};
  for (const auto &[address, value] : by_site) {
    if (value.blocks <= 0 || (address == kProfSite && moment == HeapMoment::peak)) continue;
    const SiteBytes site{address, static_cast<uint64_t>(value.bytes),
                         static_cast<uint64_t>(value.blocks)};
    if (site.site != kProfSite && !prof_code().contains(site.site)) {
      sites.push_back(site);
      continue;
    }
    prof_own.bytes += site.bytes;
    prof_own.blocks += site.blocks;
  }
  std::sort(sites.begin(), sites.end(), [](const SiteBytes &a, const SiteBytes &b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.site < b.site;
  });
  if (sites.size() > limit) {
    SiteBytes rest;
    for (size_t i = limit; i < sites.size(); ++i) {
      rest.bytes += sites[i].bytes;
      rest.blocks += sites[i].blocks;
    }
    sites.resize(limit);
    sites.push_back(rest);
  }
  if (prof_own.blocks > 0) sites.push_back(prof_own); // last, never among the rest
  return sites;
}

std::vector<StackBytes> heap_by_stack(const HeapTable &heap, const StackNames &names,
                                      HeapMoment moment, size_t limit) {
  const NotAccounted not_accounted;
  std::unordered_map<uint32_t, LedgerValue> sampled;
  heap.ledger().for_each_stack(
      [&](uintptr_t stack, const LedgerValue &now, const LedgerValue &peak) {
        sampled[static_cast<uint32_t>(stack)] += moment == HeapMoment::peak ? peak : now;
      });
  std::unordered_map<prof_stack_id, StackBytes> by_stack;
  for (const auto &[raw, value] : sampled) {
    if (value.blocks <= 0) continue;
    const StackNames::Named named = names.named(raw);
    if (named.stack == 0 || named.prof_own) continue;
    StackBytes &row = by_stack[named.stack];
    row.stack = named.stack;
    row.leaf = named.leaf;
    row.bytes += value.weight;
    row.variance += value.variance;
    row.samples += static_cast<uint64_t>(value.blocks);
  }
  std::vector<StackBytes> rows;
  rows.reserve(by_stack.size());
  for (const auto &[stack, row] : by_stack)
    rows.push_back(row);
  std::sort(rows.begin(), rows.end(), [](const StackBytes &a, const StackBytes &b) {
    return a.bytes != b.bytes ? a.bytes > b.bytes : a.stack < b.stack;
  });
  if (rows.size() > limit) rows.resize(limit);
  return rows;
}

bool MemorySource::configure() {
  const DeclaredOptions declared(host_, kOptions);
  frequency_ = static_cast<int>(declared.integer("frequency"));
  if (frequency_ < 1 || frequency_ > 1000) {
    host_.error("frequency must be 1..1000 Hz, got " + std::to_string(frequency_));
    return false;
  }
  const long long period = declared.integer("stack-sample-bytes");
  if (period < 0) {
    host_.error("stack-sample-bytes must be 0 or more, got " + std::to_string(period));
    return false;
  }
  stack_period_ = static_cast<uint64_t>(period);
  events_ = declared.text("profile") == "events";
  return true;
}

bool MemorySource::start() {
  if (started_) return true;
  if (const std::string problem = hooks_problem(); !problem.empty())
    host_.log(PROF_LOG_WARN, problem);
  prof_code().refresh(); // the plugins loaded since this one
  declare_tracks();
  if (stack_period_ > 0) {
    python_ = python::find_python_runtime().runtime;
    names_ = std::make_unique<StackNames>(host_, python_ ? &*python_ : nullptr);
    process_heap().set_stack_period(stack_period_);
    start_stack_sampling(stack_period_, python_ ? &*python_ : nullptr);
  }
  if (events_ && !process_heap().start_events(kEventsPerTick, &TscClock::now_ns))
    host_.log(PROF_LOG_WARN, "no memory for the event log: allocations are not emitted one by one");
  started_ = true;
  static const bool at_fork = pthread_atfork(nullptr, nullptr, &restart_in_forked_child) == 0;
  (void)at_fork;
  g_running.store(this);
  start_worker();
  return true;
}

void MemorySource::declare_tracks() {
  process_ = declare_process_track(host_);
  heap_track_ = host_.track(PROF_TRACK_COUNTER, "Heap in use", process_, getpid(), 0, -1, "bytes");
  mapped_track_ =
      host_.track(PROF_TRACK_COUNTER, "Anonymous mappings", process_, getpid(), 0, -1, "bytes");
  rss_track_ = host_.track(PROF_TRACK_COUNTER, "RSS", process_, getpid(), 0, -1, "bytes");
}

void MemorySource::start_worker() {
  worker_ = std::make_unique<PeriodicThread>();
  worker_->start(std::chrono::nanoseconds(1'000'000'000 / frequency_), [this] { tick(); },
                 {.on_start = [] { ignore_calling_thread(); }});
}

// In a forked child (after the agent's handler gave it its rings): the
// parent's worker is not here; let go of its copy unjoined, and start again
// on the child's own tracks. The heap table started afresh already.
void MemorySource::restart_in_forked_child() {
  MemorySource *source = g_running.load();
  if (source == nullptr) return;
  const NotAccounted not_accounted;
  (void)source->worker_.release();
  new (&source->mutex_) std::mutex;
  source->thread_tracks_.clear();
  source->events_lost_ = 0;
  source->declare_tracks();
  // The child's catalog is its own: its stacks are named again.
  if (source->names_)
    source->names_ =
        std::make_unique<StackNames>(source->host_, source->python_ ? &*source->python_ : nullptr);
  source->start_worker();
}

void MemorySource::tick() {
  prof_code().refresh();
  const uint64_t now = TscClock::now_ns();
  const HeapTotals totals = process_heap().totals();
  host_.counter(heap_track_, now, static_cast<double>(std::max<int64_t>(totals.in_use, 0)));
  host_.counter(mapped_track_, now, static_cast<double>(std::max<int64_t>(mapped_bytes(), 0)));
  host_.counter(rss_track_, now, static_cast<double>(rss_bytes()));
  std::lock_guard lock(mutex_);
  if (events_) emit_events();
  if (names_) names_->update(sampled_stacks());
}

void MemorySource::emit_sites(const std::vector<SiteBytes> &sites, uint64_t ts,
                              prof_string_id category) {
  const prof_string_id key_bytes = host_.intern("bytes");
  const prof_string_id key_blocks = host_.intern("blocks");
  for (const SiteBytes &site : sites) {
    const std::string name = site.site == 0           ? "(other call sites)"
                             : site.site == kProfSite ? "(prof's own allocations)"
                                                      : stacks::describe_address(site.site);
    const prof_arg args[] = {arg_uint(key_bytes, site.bytes), arg_uint(key_blocks, site.blocks)};
    host_.instant(process_, ts, host_.intern(name), category, PROF_CATEGORY_OTHER, args);
  }
}

void MemorySource::emit_stacks(const std::vector<StackBytes> &stacks, uint64_t ts,
                               prof_string_id category) {
  const prof_string_id key_bytes = host_.intern("bytes");
  const prof_string_id key_error = host_.intern("error bytes");
  const prof_string_id key_samples = host_.intern("samples");
  const prof_string_id key_stack = host_.intern("stack");
  for (const StackBytes &row : stacks) {
    const prof_arg args[] = {
        arg_uint(key_bytes, static_cast<uint64_t>(std::llround(row.bytes))),
        arg_uint(key_error, static_cast<uint64_t>(std::llround(2 * std::sqrt(row.variance)))),
        arg_uint(key_samples, row.samples), arg_stack(key_stack, row.stack)};
    host_.instant(process_, ts, row.leaf, category, PROF_CATEGORY_OTHER, args);
  }
}

prof_track_id MemorySource::thread_track(int tid) {
  auto found = thread_tracks_.find(tid);
  if (found == thread_tracks_.end())
    found = thread_tracks_.emplace(tid, declare_thread_track(host_, tid)).first;
  return found->second;
}

// The memory events of event.h: an instant per allocation and free on the
// thread that made it, of kind PROF_CATEGORY_MEMORY, memory "heap".
void MemorySource::emit_events() {
  taken_.clear();
  events_lost_ += process_heap().take_events(taken_);
  if (taken_.empty()) return;
  const prof_string_id category = host_.intern("heap");
  const prof_string_id names[2] = {host_.intern("alloc"), host_.intern("free")};
  const prof_string_id key_operation = host_.intern(PROF_MEMORY_ARG_OPERATION);
  const prof_string_id key_address = host_.intern(PROF_MEMORY_ARG_ADDRESS);
  const prof_string_id key_bytes = host_.intern(PROF_MEMORY_ARG_BYTES);
  const prof_arg heap = arg_string(host_.intern(PROF_MEMORY_ARG_MEMORY), host_.intern("heap"));
  size_t emitted = 0;
  for (const HeapEvent &e : taken_) {
    // A tick's events at the pace prof's drain (every millisecond) empties
    // this thread's ring at: a burst of them would fill it.
    if (++emitted % kEventsPerMillisecond == 0)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    const prof_string_id name = names[e.free ? 1 : 0];
    const prof_arg args[] = {arg_string(key_operation, name), arg_uint(key_address, e.address),
                             arg_uint(key_bytes, e.size), heap};
    host_.instant(thread_track(e.tid), e.ts, name, category, PROF_CATEGORY_MEMORY, args);
  }
}

void MemorySource::emit_summary(uint64_t now) {
  const HeapTotals totals = process_heap().totals();
  const auto key = [this](const char *name) { return host_.intern(name); };
  const prof_arg total_args[] = {
      arg_uint(key("allocations"), totals.allocations),
      arg_uint(key("frees"), totals.frees),
      arg_uint(key("bytes allocated"), totals.bytes_allocated),
      arg_uint(key("peak bytes"), totals.peak),
      arg_uint(key("temporary allocations"), totals.temporaries),
      arg_uint(key("frees of unseen blocks"), totals.unknown_frees),
      arg_uint(key("stack sample bytes"), stack_period_),
      arg_uint(key("stacks not kept"), sampled_stacks().refused()),
      arg_uint(key("events lost"), events_lost_),
  };
  if (events_lost_ > 0)
    host_.log(PROF_LOG_WARN, std::to_string(events_lost_) +
                                 " allocations and frees were not emitted: the program made more "
                                 "than the event log holds between two ticks (raise the "
                                 "memory plugin's frequency)");
  host_.instant(process_, now, key("heap totals"), key("heap/totals"), PROF_CATEGORY_OTHER,
                total_args);
  const prof_arg peak_args[] = {arg_uint(key("bytes"), totals.peak)};
  host_.instant(process_, totals.peak_ns, key("heap peak"), key("heap/peak"), PROF_CATEGORY_OTHER,
                peak_args);
  if (totals.peak > 0) {
    emit_sites(heap_by_site(process_heap(), HeapMoment::peak, kSites), totals.peak_ns,
               key("heap/peak-site"));
    if (names_)
      emit_stacks(heap_by_stack(process_heap(), *names_, HeapMoment::peak, kStacks), totals.peak_ns,
                  key("heap/peak-stack"));
  }
  // prof's own blocks still live are no leak of the program: told apart.
  std::vector<SiteBytes> live = heap_by_site(process_heap(), HeapMoment::now, kSites);
  std::vector<SiteBytes> own;
  if (!live.empty() && live.back().site == kProfSite) {
    own.push_back(live.back());
    live.pop_back();
  }
  emit_sites(live, now, key("heap/leak"));
  emit_sites(own, now, key("heap/prof-live"));
  if (names_)
    emit_stacks(heap_by_stack(process_heap(), *names_, HeapMoment::now, kStacks), now,
                key("heap/leak-stack"));
  const prof_string_id size_category = key("heap/size-class");
  const prof_string_id key_allocations = key("allocations");
  for (int k = 0; k < kSizeClasses; ++k) {
    if (totals.by_class[static_cast<size_t>(k)] == 0) continue;
    const prof_arg args[] = {arg_uint(key_allocations, totals.by_class[static_cast<size_t>(k)])};
    host_.instant(process_, now, key(size_class_name(k).c_str()), size_category,
                  PROF_CATEGORY_OTHER, args);
  }
}

bool MemorySource::stop() {
  if (!started_) return true;
  const NotAccounted not_accounted; // the summary's own allocations
  MemorySource *self = this;
  g_running.compare_exchange_strong(self, nullptr);
  started_ = false;
  if (worker_) worker_->stop();
  stop_stack_sampling();
  tick();
  std::lock_guard lock(mutex_);
  emit_summary(TscClock::now_ns());
  return true;
}

} // namespace prof::memory
