// Reports with known contents for the `prof stats` tests, written with the
// real ReportWriter, and a scratch folder to put them in.
#pragma once

#include "core/report/report_model.hpp"
#include "tests/support/scratch_dir.hpp"

#include <prof/event.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prof::stats::testing {

using prof::testing::ScratchDir;

/// Builds a report: strings, tracks and stacks are declared as they are
/// first used; events are kept in the order added.
class TestReport {
public:
  uint32_t string(const std::string &text);
  uint32_t track(prof_track_kind kind, uint32_t parent, const std::string &name, int index = -1,
                 const std::string &unit = "");
  /// A process track with its process id.
  uint32_t process(const std::string &name, int pid);
  /// A track of a device's work that process `pid` owns (a stream or
  /// queue, prof_track_desc::pid, ABI 1.10).
  uint32_t owned(prof_track_kind kind, uint32_t parent, const std::string &name, int pid,
                 int index = -1);
  /// A track of the device itself that every process shares (PROF_TRACK_SHARED).
  uint32_t shared(prof_track_kind kind, uint32_t parent, const std::string &name, int index = -1);
  /// A thread track with its thread id.
  uint32_t thread(uint32_t process, const std::string &name, int tid);
  /// A stack of function names, leaf first.
  uint32_t stack(const std::vector<std::string> &frames);

  void slice(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
             const std::string &category = "", prof_category kind = PROF_CATEGORY_OTHER);
  /// A device copy or set, as sources record it: a slice of its well-known
  /// category carrying its size as the `bytes` argument.
  void copy(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
            const std::string &category, prof_category kind, uint64_t bytes);
  /// An annotation range as the nvtx source (or with `source` "python" the
  /// python source) records it: category SOURCE or SOURCE/DOMAIN, and a named
  /// domain as the `domain` argument.
  void annotation(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                  const std::string &domain = "", const std::string &source = "nvtx");
  /// A communication call as the mpi source records it: category "mpi", its
  /// `communicator`, and when not negative its `bytes`, when not 0 its
  /// `sequence` (a collective's order on the communicator).
  void communication(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
                     const std::string &communicator, int64_t bytes = -1, uint64_t sequence = 0);
  /// Adds the `queued` argument (ns it waited in a backend's queue) to the
  /// communication call added last.
  void queued(uint64_t ns);
  /// One end of a flow: `phase` PROF_FLOW_BEGIN at a launch, PROF_FLOW_END
  /// at the device work it launched.
  void flow(uint32_t track, uint64_t ts, uint64_t id, prof_flow_phase phase);
  /// A framework operator as the torch source records it (event.h,
  /// "Framework operators"): a slice of kind PROF_CATEGORY_OPERATOR, with
  /// its `pass` and `input shapes` arguments when not empty and its `self`
  /// when not negative; with `memory`, its `allocated` and `self allocated`.
  struct OpMemory {
    int64_t allocated = 0, self_allocated = 0;
  };
  void op(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
          const std::string &pass = "", int64_t self = -1, const std::string &shapes = "",
          std::optional<OpMemory> memory = std::nullopt);
  /// A training step: an annotation slice named `name` with its number as
  /// the `step` argument (unsigned, or with `as_int` signed).
  void step(uint32_t track, uint64_t ts, uint64_t duration, uint64_t number,
            const std::string &name = "step", bool as_int = false);
  /// An API call's slice, whose id is its correlation id.
  void call(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name, uint64_t id,
            prof_category kind = PROF_CATEGORY_RUNTIME_API);
  /// Device work or a wait as device sources record it: a slice of kind
  /// `kind` whose id is the correlation id of the call that launched it,
  /// with string arguments (a copy's "src_kind" and "dst_kind").
  void work(uint32_t track, uint64_t ts, uint64_t duration, const std::string &name,
            prof_category kind, uint64_t id,
            const std::vector<std::pair<std::string, std::string>> &args = {});
  /// Events lost to `cause` (a drop record of the report).
  void dropped(prof_drop_cause cause, uint64_t count);
  /// A memory instant as device sources record it (event.h, "Memory
  /// events"): an empty `memory` and a 0 `correlation` leave those out.
  void memory(uint32_t track, uint64_t ts, const std::string &operation, uint64_t address,
              uint64_t bytes, const std::string &memory = "device", uint64_t correlation = 0);
  /// Flags the slice added last as open at a flight-recorder dump.
  void unfinished() { events_.back().flags = PROF_SLICE_UNFINISHED; }
  void counter(uint32_t track, uint64_t ts, double value);
  void sample(uint32_t track, uint64_t ts, uint32_t stack, const std::string &category = "");
  void instant(uint32_t track, uint64_t ts, const std::string &name);
  /// A summary instant of the memory source: category `category`
  /// ("heap/leak", ...) with unsigned arguments, and a "stack" argument
  /// when `stack` is not 0.
  void heap(uint32_t track, uint64_t ts, const std::string &name, const std::string &category,
            const std::vector<std::pair<std::string, uint64_t>> &args, uint32_t stack = 0);
  /// An EVENTS chunk written as is after the events: its checksum holds
  /// whatever the payload says.
  void raw_events_chunk(std::vector<uint8_t> payload) { raw_.push_back(std::move(payload)); }

  /// Writes the report, `events_per_chunk` events to an EVENTS chunk; without
  /// `finish`, no END chunk (a capture cut short).
  void write(const std::string &path, size_t events_per_chunk = 65536, bool finish = true) const;

  const std::vector<prof_event> &events() const { return events_; }

private:
  std::vector<std::string> strings_{""};
  std::vector<report::TrackRecord> tracks_;
  std::vector<report::StackRecord> stacks_;
  std::vector<report::ArgsRecord> args_;
  std::vector<prof_event> events_;
  std::vector<std::vector<uint8_t>> raw_;
  std::vector<report::DropRecord> drops_;
};

/// The report most tests use (times in us from 1 s on the session clock):
///   GCU 0 / Cluster 0 / SIP 0: conv [0, 2000), conv [2500, 3500), relu [3400, 3600)
///   GCU 0 / CDMA 0: "Memcpy HtoD" (category "DMA VC Execution") [5000, 5100),
///                   "Memset" [9000, 9050); 1 MiB and 256 bytes
///   GCU 1 / SIP 0:  conv [1000, 4000), "Memcpy DtoH" [4000, 4500), 4096 bytes
///   (kernels, copies and the set carry their well-known categories)
///   thread main: api gcuLaunchKernel [0, 5) and [10, 17); osrt read [20, 30);
///                nvtx range "step" [0, 10000); a thread-state slice; an instant
///   counters: "cpu2 utilization" (%) 10, 20, 60; "RSS" (bytes) 1 MiB, 3 MiB
///   samples: 3 x {compute, main}, 1 x {helper, compute, main}, and one
///            stack with a category (not a CPU sample)
TestReport known_report();
inline constexpr uint64_t kOrigin = 1'000'000'000; ///< ns of the first event
inline constexpr uint64_t kUs = 1000;

/// A larger report of random events of every kind over `devices` devices.
TestReport random_report(uint64_t events, uint32_t seed, int devices = 3);

} // namespace prof::stats::testing
