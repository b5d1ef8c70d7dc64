// Turns NCCL profiler events into prof events. Tracks: a communicator (its
// name, or its hash, and its size) > this process's rank in it > channels,
// proxy connections and their step slots. Collectives, point-to-point
// operations and copy-engine collectives are communication slices on the
// rank track with typed arguments (bytes, count, datatype, root or peer,
// algorithm, protocol, channels, sequence, communicator); the application's
// calls (v5) are runtime-API slices on its thread; proxy operations, steps,
// network events and kernel channels sit under the rank, each kernel
// channel tied by a flow to the operation that launched it.
//
// NCCL starts children after their parent stopped (a collective stops once
// enqueued; its proxy and kernel events follow), so an event's memory comes
// from its communicator's pool and is reused only after every other free
// slot was: a parent a child names is still there to read.
#ifndef PROF_PLUGINS_PCCL_PCCL_RECORDER_HPP
#define PROF_PLUGINS_PCCL_PCCL_RECORDER_HPP

#include "pccl_event.hpp"

#include <prof/plugin.hpp>
#include <prof/spin_lock.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

namespace prof::pccl {

/// Which events the recorder asks NCCL for.
enum class Detail { all, collectives };
/// NCCL's activation mask for `detail`.
uint64_t activation_mask(Detail detail);

struct Event;
class PcclRecorder;

/// A track under a communicator's rank track: what it holds, for which
/// channel, direction, peer and step slot (-1 where it does not apply).
struct TrackKey {
  enum What : int8_t { kernel, proxy, steps, network, progress } what = kernel;
  int8_t is_send = -1, slot = -1;
  int16_t channel = -1;
  int32_t peer = -1;
  auto operator<=>(const TrackKey &) const = default;
  /// Its name: "channel 0 send to 2 step slot 3".
  std::string name() const;
};

/// One communicator as NCCL initialized it: init's context.
class Communicator {
public:
  Communicator(PcclRecorder &recorder, std::string name, int ranks, int rank, int *mask_word);
  ~Communicator();

  Event *allocate();
  void release(Event *event);
  /// The track of `key` under this rank, declared the first time.
  prof_track_id track(const TrackKey &key);

  /// A collective NCCL enqueued whose kernel has not finished on every
  /// channel: what this rank is inside (or queued behind), for a flight
  /// recorder's dump.
  struct InFlight {
    prof_string_id operation = 0;
    uint64_t sequence = 0;
    uint64_t begin = 0;    ///< when it was enqueued
    uint32_t channels = 1; ///< kernel channels it runs on
    uint32_t finished = 0; ///< of them, those that stopped
  };
  /// Kept at most: a library that reports no kernel channels never ends one.
  static constexpr size_t kMaxInFlight = 256;
  void enqueued(prof_string_id operation, uint64_t sequence, uint64_t begin, int channels);
  /// One kernel channel of collective `sequence` stopped; once all did, it
  /// and every earlier one (the stream runs them in order) are done.
  void channel_finished(uint64_t sequence);
  std::vector<InFlight> in_flight();

  PcclRecorder &recorder;
  const std::string name; ///< what the communicator argument says: "NCCL 0x..." or its own name
  const int ranks, rank;
  int *const mask_word; ///< NCCL's activation mask for this communicator
  prof_track_id rank_track = 0;
  prof_string_id name_id = 0;

private:
  static constexpr uint32_t kPoolSize = 16384;
  std::unique_ptr<Event[]> pool_;
  std::vector<uint32_t> free_; ///< a ring of free slots, oldest first
  uint32_t free_head_ = 0, free_count_ = 0;
  SpinLock lock_; ///< the pool and the tracks
  std::map<TrackKey, prof_track_id> tracks_;
  std::map<uint64_t, InFlight> in_flight_; ///< by sequence
};

class PcclRecorder {
public:
  PcclRecorder(const Host &host, Detail detail);

  Communicator *open(uint64_t hash, const char *name, int ranks, int rank, int *mask_word);
  void close(Communicator *comm);

  /// Returns the handle NCCL passes back, nullptr when nothing is recorded.
  Event *start(Communicator *comm, const EventStart &start);
  void update(Event *event, const StateUpdate &update);
  void stop(Event *event);

  /// Collection on or off: NCCL's masks follow, and events started while
  /// off are not recorded.
  void set_collecting(bool collecting);
  bool collecting() const { return collecting_.load(std::memory_order_acquire); }
  /// Events not recorded since the last call: every slot of their pool was in use.
  uint64_t take_dropped() { return dropped_.exchange(0, std::memory_order_relaxed); }
  /// At a dump: each collective in flight, as an unfinished communication
  /// slice on its rank's track (communicator, sequence).
  void emit_unfinished(uint64_t now);

  const Host &host() const { return host_; }

  /// Interned argument keys, categories and the names the recorder gives,
  /// once: an event interns only what NCCL hands it (a collective's name,
  /// its datatype, algorithm, protocol).
  struct Keys {
    prof_string_id bytes, count, datatype, root, peer, algorithm, protocol, channels, warps,
        sequence, communicator, comm_size, rank, channel, steps, chunk_bytes, step, stream,
        graph_captured, group_depth, gpu_start, gpu_stop, gpu_ns, operation, appended_ops, net_type,
        net_id, device, qp, opcode, fd, sync_strategy, ops, ranks;
    prof_string_id category, category_api, category_proxy, category_kernel;
  };
  struct Names {
    prof_string_id group, collective, p2p, nccl_group, nccl_kernel_launch, nccl_api, proxy_send,
        proxy_recv, send_step, recv_step, kernel_channel, ib_request, socket_operation,
        network_event, ce_sync, ce_batch, ib, socket;
    /// By proxy control state, kProxyCtrlIdle .. kProxyCtrlAppend.
    std::array<prof_string_id, 5> proxy_states;
  };
  const Keys &keys() const { return keys_; }
  prof_string_id intern(const char *text);

private:
  friend class Communicator;
  void emit(Event &event, uint64_t end);
  void emit_ctrl_state(Event &event, uint64_t now);

  Host host_;
  const uint64_t mask_;
  Keys keys_{};
  Names names_{};
  std::atomic<bool> collecting_{true};
  std::atomic<uint64_t> dropped_{0};
  std::atomic<uint64_t> next_flow_{1};
  SpinLock lock_; ///< communicators_ and strings_
  std::vector<Communicator *> communicators_;
  std::map<std::string, prof_string_id, std::less<>> strings_;
};

/// A recorder that lives as long as the process: NCCL's threads may call
/// into it at any time, even after the source stopped. Kept reachable (not
/// leaked) for leak checkers.
PcclRecorder *new_lasting_recorder(const Host &host, Detail detail);

/// The recorder that started `event`.
PcclRecorder &recorder_of(const Event *event);

/// The recorder the entry points use (nullptr: none started yet).
PcclRecorder *installed_recorder();
void install_recorder(PcclRecorder *recorder);

} // namespace prof::pccl

#endif
