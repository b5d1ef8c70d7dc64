// The memory source (process scope, `--memory-profile`): the allocation
// hooks account every heap block of the process (allocator_hooks.hpp) and,
// for a sample by bytes, take its call stack (stack_sampler.hpp); while
// started, a worker emits the heap in use, the program's anonymous mappings
// and the RSS as counters and names the sampled stacks; the heap's ledger
// keeps what each call site and stack held at the peak (peak_ledger.hpp). At stop
// it emits the summary as instants of category heap/...: the peak and its
// call sites and stacks, the blocks still live (leaks) by call site and by
// stack, prof's own blocks still live (heap/prof-live, apart from the
// leaks), allocations by size class, and the totals. With `events` it also
// emits every allocation and free as a memory instant on its thread (the
// heap table's event log, drained by the worker).
// A forked child reports its own heap, from the fork on, on its own track.
#ifndef PROF_PLUGINS_MEMORY_MEMORY_SOURCE_HPP
#define PROF_PLUGINS_MEMORY_MEMORY_SOURCE_HPP

#include "heap_table.hpp"
#include "stack_names.hpp"

#include <prof/periodic_thread.hpp>
#include <prof/plugin.hpp>
#include <prof/python/python_runtime.hpp>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::memory {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"frequency", PROF_OPTION_INT, "100", 1, 1000, nullptr,
     "heap, mapping and RSS counter samples per second"},
    {"stack-sample-bytes", PROF_OPTION_INT, "524288", 0, 1099511627776LL, nullptr,
     "bytes allocated between call stacks taken, on average (a sample by bytes; 1: every "
     "allocation, 0: call sites only)"},
    {"profile", PROF_OPTION_ENUM, "summary", 0, 0, "summary,events",
     "summary: counters and the summary at exit; events: also every allocation and free as a "
     "memory instant on its thread (--memory-profile events)"},
};

/// Live bytes and blocks of one call site.
struct SiteBytes {
  uintptr_t site = 0;
  uint64_t bytes = 0, blocks = 0;
};

/// When a heap's rows are read: now, or at its peak.
enum class HeapMoment { now, peak };

/// The bytes `heap` held by call site at `moment`, exact, most bytes first,
/// at most `limit` (the rest summed into one entry of site 0); prof's own
/// blocks (and sites in prof's libraries) count as one entry of kProfSite,
/// last, and at the peak only those the heap's level counted.
std::vector<SiteBytes> heap_by_site(const HeapTable &heap, HeapMoment moment, size_t limit);

/// Estimated bytes of one sampled call stack (stack_sampler.hpp).
struct StackBytes {
  prof_stack_id stack = 0;
  prof_string_id leaf = 0;
  double bytes = 0, variance = 0;
  uint64_t samples = 0; ///< sampled blocks
};

/// The sampled blocks of `heap` at `moment` summed by named stack, most
/// bytes first, at most `limit`; prof's own and stacks not named yet left out.
std::vector<StackBytes> heap_by_stack(const HeapTable &heap, const StackNames &names,
                                      HeapMoment moment, size_t limit);

class MemorySource {
public:
  explicit MemorySource(Host host) : host_(host) {}
  ~MemorySource() { stop(); }
  MemorySource(const MemorySource &) = delete;
  MemorySource &operator=(const MemorySource &) = delete;

  bool configure();
  bool start();
  bool stop();
  bool suspend() { return true; }
  bool resume() { return true; }
  bool flush() { return true; }

  static constexpr size_t kSites = 50;
  static constexpr size_t kStacks = 20;
  /// Events the heap logs between two ticks at most (16 MiB).
  static constexpr size_t kEventsPerTick = 512 * 1024;
  /// Events emitted a millisecond at most (three ring records each).
  static constexpr size_t kEventsPerMillisecond = 2048;

private:
  static void restart_in_forked_child();
  void start_worker();
  void declare_tracks();
  void tick();
  void emit_summary(uint64_t now);
  void emit_sites(const std::vector<SiteBytes> &sites, uint64_t ts, prof_string_id category);
  void emit_stacks(const std::vector<StackBytes> &stacks, uint64_t ts, prof_string_id category);
  void emit_events();
  prof_track_id thread_track(int tid);

  Host host_;
  int frequency_ = 100;
  uint64_t stack_period_ = 0; ///< set by configure()
  bool events_ = false;       ///< an instant per allocation and free
  std::vector<HeapEvent> taken_;
  uint64_t events_lost_ = 0; ///< to a full event log
  std::unordered_map<int, prof_track_id> thread_tracks_;
  std::optional<python::PythonRuntime> python_; ///< set in a CPython process
  std::unique_ptr<StackNames> names_;
  std::unique_ptr<PeriodicThread> worker_;
  std::mutex mutex_; ///< the snapshot, between the worker and stop()
  prof_track_id process_ = 0, heap_track_ = 0, mapped_track_ = 0, rss_track_ = 0;
  bool started_ = false;
};

} // namespace prof::memory

#endif
