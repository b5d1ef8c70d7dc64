#include "pccl_recorder.hpp"

#include "nccl_profiler_abi.hpp"

#include <prof/correlation.hpp>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <string_view>
#include <unistd.h>

namespace prof::pccl {

namespace {

constexpr size_t kMaxArgs = 14;
/// Local flow ids above NCCL-sized counts, below kCorrelationBits: apart
/// from a runtime's correlation ids in the same process.
constexpr uint64_t kFlowBase = uint64_t{1} << 39;
/// NCCL's steps in flight per connection: steps that many apart never overlap.
constexpr int kStepSlots = 8;

std::atomic<PcclRecorder *> g_recorder{nullptr};

/// The calling thread's track, declared once per thread and process.
prof_track_id calling_thread_track(const Host &host) {
  thread_local prof_track_id track = 0;
  thread_local pid_t declared_in = 0;
  if (track == 0 || declared_in != getpid()) {
    track = declare_calling_thread_track(host);
    declared_in = getpid();
  }
  return track;
}

/// Bytes of one element of an NCCL datatype, 0 when not known.
size_t datatype_bytes(std::string_view type) {
  if (type.starts_with("nccl")) type.remove_prefix(4);
  if (type == "Int8" || type == "Char" || type == "Uint8" || type == "Float8e4m3" ||
      type == "Float8e5m2")
    return 1;
  if (type == "Float16" || type == "Half" || type == "Bfloat16") return 2;
  if (type == "Int32" || type == "Int" || type == "Uint32" || type == "Float32" || type == "Float")
    return 4;
  if (type == "Int64" || type == "Uint64" || type == "Float64" || type == "Double") return 8;
  return 0;
}

/// A proxy control state's place in Names::proxy_states, -1 for none.
int proxy_state_index(int state) {
  return state >= nccl::kProxyCtrlIdle && state <= nccl::kProxyCtrlAppend
             ? state - nccl::kProxyCtrlIdle
             : -1;
}

std::string hex(uint64_t value) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(value));
  return text;
}

} // namespace

/// One started event; lives in its communicator's pool.
struct Event {
  Communicator *comm = nullptr;
  Kind kind = Kind::group;
  bool recorded = false; ///< started while collecting, with a track
  uint64_t begin = 0;
  prof_track_id track = 0;
  prof_string_id name = 0;
  prof_string_id category = 0;
  prof_category category_kind = PROF_CATEGORY_OTHER;
  std::array<prof_arg, kMaxArgs> args{};
  uint32_t arg_count = 0;
  // What children read of their parent, kept as it was when it started.
  prof_string_id operation = 0; ///< the collective's or p2p's name
  bool has_sequence = false;
  uint64_t sequence = 0;
  int channels = -1; ///< a collective's, as NCCL announced them
  int channel = -1, peer = -1, is_send = -1;
  TrackKey step_track; ///< a proxy step's, for its network events
  // What the event learns as it goes.
  uint64_t gpu_start = 0, gpu_stop = 0;
  size_t transferred = 0;
  int ctrl_state = -1;
  uint64_t ctrl_since = 0;
  int appended_ops = -1;
  /// A kernel channel's flow from the operation that launched it.
  prof_track_id flow_from_track = 0;
  uint64_t flow_from_ts = 0;

  void add(prof_string_id key, uint64_t value) {
    if (arg_count < kMaxArgs) args[arg_count++] = {key, PROF_ARG_UINT, {.u = value}};
  }
  void add_string(prof_string_id key, prof_string_id value) {
    if (value != 0 && arg_count < kMaxArgs)
      args[arg_count++] = {key, PROF_ARG_STRING, {.s = value}};
  }
};

uint64_t activation_mask(Detail detail) {
  const uint64_t collectives = nccl::kGroup | nccl::kColl | nccl::kP2p | nccl::kKernelCh |
                               nccl::kGroupApi | nccl::kCollApi | nccl::kP2pApi |
                               nccl::kKernelLaunch | nccl::kCeColl | nccl::kCeSync | nccl::kCeBatch;
  if (detail == Detail::collectives) return collectives;
  return collectives | nccl::kProxyOp | nccl::kProxyStep | nccl::kProxyCtrl | nccl::kNetPlugin;
}

std::string TrackKey::name() const {
  if (what == progress) return "proxy progress";
  std::string text = "channel " + std::to_string(channel);
  if (what == kernel) return text + " kernel";
  text += (is_send ? " send to " : " recv from ") + std::to_string(peer);
  if (what == proxy) return text;
  text += " step slot " + std::to_string(slot);
  return what == network ? text + " network" : text;
}

// --- Communicator ----------------------------------------------------------

Communicator::Communicator(PcclRecorder &recorder, std::string name, int ranks, int rank,
                           int *mask_word)
    : recorder(recorder), name(std::move(name)), ranks(ranks), rank(rank), mask_word(mask_word),
      pool_(std::make_unique<Event[]>(kPoolSize)), free_(kPoolSize) {
  for (uint32_t i = 0; i < kPoolSize; ++i)
    free_[i] = i;
  free_count_ = kPoolSize;
  const Host &host = recorder.host();
  name_id = host.intern(this->name);
  const prof_track_id comm_track =
      host.track(PROF_TRACK_COMM,
                 this->name + " (" + std::to_string(ranks) + (ranks == 1 ? " rank)" : " ranks)"),
                 declare_process_track(host));
  rank_track = host.track(PROF_TRACK_COMM, "rank " + std::to_string(rank), comm_track, 0, 0, rank);
}

Communicator::~Communicator() = default;

Event *Communicator::allocate() {
  std::lock_guard guard(lock_);
  if (free_count_ == 0) return nullptr;
  const uint32_t index = free_[free_head_];
  free_head_ = (free_head_ + 1) % kPoolSize;
  --free_count_;
  return &pool_[index];
}

void Communicator::release(Event *event) {
  std::lock_guard guard(lock_);
  const auto index = static_cast<uint32_t>(event - pool_.get());
  free_[(free_head_ + free_count_) % kPoolSize] = index;
  ++free_count_;
}

void Communicator::enqueued(prof_string_id operation, uint64_t sequence, uint64_t begin,
                            int channels) {
  std::lock_guard guard(lock_);
  in_flight_[sequence] = {operation, sequence, begin, channels > 0 ? uint32_t(channels) : 1u, 0};
  if (in_flight_.size() > kMaxInFlight) in_flight_.erase(in_flight_.begin());
}

void Communicator::channel_finished(uint64_t sequence) {
  std::lock_guard guard(lock_);
  const auto it = in_flight_.find(sequence);
  if (it == in_flight_.end() || ++it->second.finished < it->second.channels) return;
  in_flight_.erase(in_flight_.begin(), std::next(it));
}

std::vector<Communicator::InFlight> Communicator::in_flight() {
  std::lock_guard guard(lock_);
  std::vector<InFlight> flights;
  for (const auto &[key, flight] : in_flight_)
    flights.push_back(flight);
  return flights;
}

prof_track_id Communicator::track(const TrackKey &key) {
  std::lock_guard guard(lock_);
  auto [it, added] = tracks_.try_emplace(key, 0);
  if (added)
    it->second = recorder.host().track(PROF_TRACK_COMM, key.name(), rank_track, 0, 0, key.channel);
  return it->second;
}

// --- PcclRecorder ----------------------------------------------------------

PcclRecorder::PcclRecorder(const Host &host, Detail detail)
    : host_(host), mask_(activation_mask(detail)) {
  const auto k = [this](const char *text) { return host_.intern(text); };
  keys_ = {k("bytes"),
           k("count"),
           k("datatype"),
           k("root"),
           k("peer"),
           k("algorithm"),
           k("protocol"),
           k("channels"),
           k("warps"),
           k("sequence"),
           k("communicator"),
           k("communicator size"),
           k("rank"),
           k("channel"),
           k("steps"),
           k("chunk_bytes"),
           k("step"),
           k("stream"),
           k("graph_captured"),
           k("group_depth"),
           k("gpu_start"),
           k("gpu_stop"),
           k("gpu_ns"),
           k("operation"),
           k("appended_ops"),
           k("net_type"),
           k("net_id"),
           k("device"),
           k("qp"),
           k("opcode"),
           k("fd"),
           k("sync_strategy"),
           k("ops"),
           k("ranks"),
           k("pccl"),
           k("pccl api"),
           k("pccl proxy"),
           k("pccl kernel")};
  names_ = {
      k("Group"),
      k("Collective"),
      k("P2p"),
      k("ncclGroup"),
      k("ncclKernelLaunch"),
      k("ncclApi"),
      k("Proxy send"),
      k("Proxy recv"),
      k("Send step"),
      k("Recv step"),
      k("Kernel channel"),
      k("IB work request"),
      k("Socket operation"),
      k("Network event"),
      k("CE sync"),
      k("CE batch"),
      k("ib"),
      k("socket"),
      {k("Proxy idle"), k("Proxy active"), k("Proxy sleep"), k("Proxy wakeup"), k("Proxy append")}};
}

prof_string_id PcclRecorder::intern(const char *text) {
  if (text == nullptr || *text == '\0') return 0;
  const std::string_view view(text);
  std::lock_guard guard(lock_);
  if (auto it = strings_.find(view); it != strings_.end()) return it->second;
  const prof_string_id id = host_.intern(view);
  strings_.emplace(std::string(view), id);
  return id;
}

Communicator *PcclRecorder::open(uint64_t hash, const char *name, int ranks, int rank,
                                 int *mask_word) {
  std::string shown = name && *name ? std::string(name) : "NCCL " + hex(hash);
  auto *comm = new Communicator(*this, std::move(shown), ranks, rank, mask_word);
  if (mask_word) *mask_word = collecting() ? static_cast<int>(mask_) : 0;
  std::lock_guard guard(lock_);
  communicators_.push_back(comm);
  return comm;
}

void PcclRecorder::close(Communicator *comm) {
  {
    std::lock_guard guard(lock_);
    std::erase(communicators_, comm);
  }
  delete comm;
}

void PcclRecorder::set_collecting(bool collecting) {
  collecting_.store(collecting, std::memory_order_release);
  std::lock_guard guard(lock_);
  for (Communicator *comm : communicators_)
    if (comm->mask_word)
      __atomic_store_n(comm->mask_word, collecting ? static_cast<int>(mask_) : 0, __ATOMIC_RELAXED);
}

Event *PcclRecorder::start(Communicator *comm, const EventStart &s) {
  if (comm == nullptr) return nullptr;
  Event *e = comm->allocate();
  if (e == nullptr) {
    dropped_.fetch_add(1, std::memory_order_relaxed);
    return nullptr;
  }
  *e = Event{};
  e->comm = comm;
  e->kind = s.kind;
  e->begin = TscClock::now_ns();
  e->recorded = collecting();
  const Keys &k = keys_;
  const Names &n = names_;
  // A parent's handle is ours, from this communicator's pool or another's.
  const Event *parent = static_cast<const Event *>(s.parent);
  const auto add_operation = [&](const Event *from) {
    if (from == nullptr) return;
    e->add_string(k.operation, from->operation);
    if (from->has_sequence) e->add(k.sequence, from->sequence);
  };
  const auto add_size = [&](bool with_bytes) {
    if (!s.has_count) return;
    e->add(k.count, s.count);
    if (s.datatype) {
      e->add_string(k.datatype, intern(s.datatype));
      if (const size_t size = datatype_bytes(s.datatype); size > 0 && with_bytes)
        e->add(k.bytes, s.count * size);
    }
  };
  const auto on_communication = [&](prof_string_id fallback_name) {
    e->track = comm->rank_track;
    e->name = s.func ? intern(s.func) : fallback_name;
    e->operation = e->name;
    e->category = k.category;
    e->category_kind = PROF_CATEGORY_COMMUNICATION;
    e->add_string(k.communicator, comm->name_id);
    e->add(k.comm_size, static_cast<uint64_t>(comm->ranks));
    e->add(k.rank, static_cast<uint64_t>(comm->rank));
  };
  switch (s.kind) {
  case Kind::group:
    e->track = comm->rank_track;
    e->name = n.group;
    e->category = k.category;
    break;
  case Kind::coll:
  case Kind::ce_coll:
    on_communication(n.collective);
    add_size(true);
    if (s.root >= 0) e->add(k.root, static_cast<uint64_t>(s.root));
    e->add_string(k.algorithm, intern(s.algorithm));
    e->add_string(k.protocol, intern(s.protocol));
    e->add_string(k.sync_strategy, intern(s.sync_strategy));
    if (s.channels >= 0) e->add(k.channels, static_cast<uint64_t>(s.channels));
    e->channels = s.channels;
    if (s.warps >= 0) e->add(k.warps, static_cast<uint64_t>(s.warps));
    if (s.has_sequence) {
      e->has_sequence = true;
      e->sequence = s.sequence;
      e->add(k.sequence, s.sequence);
    }
    break;
  case Kind::p2p:
    on_communication(n.p2p);
    add_size(true);
    if (s.peer >= 0) e->add(k.peer, static_cast<uint64_t>(s.peer));
    if (s.channels >= 0) e->add(k.channels, static_cast<uint64_t>(s.channels));
    e->peer = s.peer;
    break;
  case Kind::group_api:
  case Kind::coll_api:
  case Kind::p2p_api:
  case Kind::kernel_launch: {
    e->track = calling_thread_track(host_);
    e->category = k.category_api;
    e->category_kind = PROF_CATEGORY_RUNTIME_API;
    if (s.func) {
      const std::string api = std::string("nccl") + s.func;
      e->name = intern(api.c_str());
    } else {
      e->name = s.kind == Kind::group_api       ? n.nccl_group
                : s.kind == Kind::kernel_launch ? n.nccl_kernel_launch
                                                : n.nccl_api;
    }
    add_size(true);
    if (s.root >= 0) e->add(k.root, static_cast<uint64_t>(s.root));
    if (s.group_depth >= 0) e->add(k.group_depth, static_cast<uint64_t>(s.group_depth));
    if (s.graph_captured >= 0) e->add(k.graph_captured, static_cast<uint64_t>(s.graph_captured));
    if (s.stream) e->add(k.stream, reinterpret_cast<uintptr_t>(s.stream));
    e->add_string(k.communicator, comm->name_id);
    break;
  }
  case Kind::proxy_op: {
    e->channel = s.channel;
    e->peer = s.peer;
    e->is_send = s.is_send;
    e->track = comm->track({TrackKey::proxy, static_cast<int8_t>(s.is_send != 0), -1,
                            static_cast<int16_t>(s.channel), s.peer});
    e->name = s.is_send ? n.proxy_send : n.proxy_recv;
    e->category = k.category_proxy;
    if (s.pid != getpid()) parent = nullptr; // PXN: another process's handle
    add_operation(parent);
    e->add(k.channel, static_cast<uint64_t>(s.channel));
    e->add(k.peer, static_cast<uint64_t>(s.peer));
    if (s.steps >= 0) e->add(k.steps, static_cast<uint64_t>(s.steps));
    if (s.chunk_bytes >= 0) e->add(k.chunk_bytes, static_cast<uint64_t>(s.chunk_bytes));
    if (parent) {
      e->operation = parent->operation;
      e->has_sequence = parent->has_sequence;
      e->sequence = parent->sequence;
    }
    break;
  }
  case Kind::proxy_step: {
    if (parent == nullptr || parent->kind != Kind::proxy_op) break; // NCCL ran out of events
    e->channel = parent->channel;
    e->peer = parent->peer;
    e->is_send = parent->is_send;
    e->step_track = {TrackKey::steps, static_cast<int8_t>(parent->is_send != 0),
                     static_cast<int8_t>(((s.step % kStepSlots) + kStepSlots) % kStepSlots),
                     static_cast<int16_t>(parent->channel), parent->peer};
    e->track = comm->track(e->step_track);
    e->name = parent->is_send ? n.send_step : n.recv_step;
    e->category = k.category_proxy;
    add_operation(parent);
    e->add(k.step, static_cast<uint64_t>(s.step));
    e->operation = parent->operation;
    e->has_sequence = parent->has_sequence;
    e->sequence = parent->sequence;
    break;
  }
  case Kind::net_plugin: {
    if (parent == nullptr || parent->kind != Kind::proxy_step) break;
    TrackKey network = parent->step_track;
    network.what = TrackKey::network;
    e->track = comm->track(network);
    e->category = k.category_proxy;
    const auto type = static_cast<uint32_t>(s.net_id) & ~nccl::kNetVersionMask;
    const auto version = static_cast<uint32_t>(s.net_id) & nccl::kNetVersionMask;
    e->add(k.net_id, static_cast<uint64_t>(s.net_id));
    if (type == nccl::kNetTypeIb && version == 1 && s.net_data) {
      const auto *ib = static_cast<const nccl::NetIbEventV1 *>(s.net_data);
      e->name = n.ib_request;
      e->add_string(k.net_type, n.ib);
      e->add(k.device, static_cast<uint64_t>(ib->device));
      e->add(k.qp, static_cast<uint64_t>(ib->qp_num));
      e->add(k.opcode, static_cast<uint64_t>(ib->opcode));
      e->add(k.bytes, ib->length);
    } else if (type == nccl::kNetTypeSocket && version == 1 && s.net_data) {
      const auto *sock = static_cast<const nccl::NetSocketEventV1 *>(s.net_data);
      e->name = n.socket_operation;
      e->add_string(k.net_type, n.socket);
      e->add(k.fd, static_cast<uint64_t>(sock->fd));
      e->add(k.opcode, static_cast<uint64_t>(sock->op));
      e->add(k.bytes, sock->length);
    } else {
      e->name = n.network_event;
    }
    add_operation(parent);
    break;
  }
  case Kind::proxy_ctrl:
    e->track = comm->track({TrackKey::progress});
    e->category = k.category_proxy;
    e->ctrl_since = e->begin;
    break;
  case Kind::kernel_ch: {
    e->channel = s.channel;
    e->track = comm->track({TrackKey::kernel, -1, -1, static_cast<int16_t>(s.channel), -1});
    e->name = n.kernel_channel;
    e->category = k.category_kernel;
    e->category_kind = PROF_CATEGORY_OTHER;
    e->gpu_start = s.gpu_timer;
    e->add(k.channel, static_cast<uint64_t>(s.channel));
    if (parent && (parent->kind == Kind::coll || parent->kind == Kind::p2p)) {
      add_operation(parent);
      e->flow_from_track = parent->track;
      e->flow_from_ts = parent->begin;
      e->has_sequence = parent->has_sequence;
      e->sequence = parent->sequence;
    }
    break;
  }
  case Kind::ce_sync:
    e->track = comm->rank_track;
    e->name = n.ce_sync;
    e->category = k.category;
    if (s.sync_ranks >= 0) e->add(k.ranks, static_cast<uint64_t>(s.sync_ranks));
    add_operation(parent);
    break;
  case Kind::ce_batch:
    e->track = comm->rank_track;
    e->name = n.ce_batch;
    e->category = k.category;
    if (s.ops >= 0) e->add(k.ops, static_cast<uint64_t>(s.ops));
    e->add(k.bytes, s.total_bytes);
    add_operation(parent);
    break;
  }
  if (e->track == 0) e->recorded = false;
  return e;
}

void PcclRecorder::update(Event *e, const StateUpdate &u) {
  if (e == nullptr) return;
  switch (e->kind) {
  case Kind::proxy_step:
    if (u.has_args && u.transferred > e->transferred) e->transferred = u.transferred;
    break;
  case Kind::proxy_ctrl:
    if (u.has_args && u.appended_ops >= 0) e->appended_ops = u.appended_ops;
    if (proxy_state_index(u.state) >= 0 || u.state == nccl::kProxyCtrlAppendEnd) {
      const uint64_t now = TscClock::now_ns();
      emit_ctrl_state(*e, now);
      e->ctrl_state = u.state == nccl::kProxyCtrlAppendEnd ? nccl::kProxyCtrlActive : u.state;
      e->ctrl_since = now;
    }
    break;
  case Kind::kernel_ch:
    if (u.state == nccl::kKernelChStop && u.has_args) e->gpu_stop = u.gpu_timer;
    break;
  default:
    break;
  }
}

void PcclRecorder::emit_ctrl_state(Event &e, uint64_t now) {
  const int state = proxy_state_index(e.ctrl_state);
  if (!e.recorded || state < 0 || !collecting()) return;
  std::array<prof_arg, 1> args{};
  uint32_t count = 0;
  if (e.appended_ops >= 0)
    args[count++] = {
        keys_.appended_ops, PROF_ARG_UINT, {.u = static_cast<uint64_t>(e.appended_ops)}};
  host_.slice(e.track, e.ctrl_since, now - e.ctrl_since, names_.proxy_states[state], e.category, 0,
              PROF_CATEGORY_OTHER, std::span<const prof_arg>(args.data(), count));
}

void PcclRecorder::stop(Event *e) {
  if (e == nullptr) return;
  const uint64_t end = TscClock::now_ns();
  if (e->kind == Kind::proxy_ctrl)
    emit_ctrl_state(*e, end);
  else if (e->recorded && collecting())
    emit(*e, end);
  // A collective is in flight from its enqueueing (its stop) until its
  // kernel stopped on every channel: the kernel waits there for every rank.
  if (e->recorded && e->has_sequence && e->kind == Kind::coll)
    e->comm->enqueued(e->operation, e->sequence, e->begin, e->channels);
  else if (e->has_sequence && e->kind == Kind::kernel_ch)
    e->comm->channel_finished(e->sequence);
  e->comm->release(e);
}

void PcclRecorder::emit_unfinished(uint64_t now) {
  if (!collecting()) return;
  const Keys &k = keys_;
  std::lock_guard guard(lock_); // communicators stay while it is held
  for (Communicator *comm : communicators_) {
    if (comm->rank_track == 0) continue;
    for (const Communicator::InFlight &flight : comm->in_flight()) {
      if (flight.begin > now) continue;
      const prof_arg args[] = {
          {k.communicator, PROF_ARG_STRING, {.s = comm->name_id}},
          {k.comm_size, PROF_ARG_UINT, {.u = static_cast<uint64_t>(comm->ranks)}},
          {k.rank, PROF_ARG_UINT, {.u = static_cast<uint64_t>(comm->rank)}},
          {k.sequence, PROF_ARG_UINT, {.u = flight.sequence}}};
      host_.slice(comm->rank_track, flight.begin, now - flight.begin, flight.operation, k.category,
                  0, PROF_CATEGORY_COMMUNICATION, args);
    }
  }
}

void PcclRecorder::emit(Event &e, uint64_t end) {
  // What the event learned as it went: its last arguments (it is released next).
  if (e.kind == Kind::proxy_step && e.transferred > 0) e.add(keys_.bytes, e.transferred);
  if (e.kind == Kind::kernel_ch) {
    if (e.gpu_start) e.add(keys_.gpu_start, e.gpu_start);
    if (e.gpu_stop) e.add(keys_.gpu_stop, e.gpu_stop);
    if (e.gpu_start && e.gpu_stop >= e.gpu_start) e.add(keys_.gpu_ns, e.gpu_stop - e.gpu_start);
  }
  host_.slice(e.track, e.begin, end > e.begin ? end - e.begin : 0, e.name, e.category, 0,
              e.category_kind, std::span<const prof_arg>(e.args.data(), e.arg_count));
  if (e.flow_from_track != 0) {
    const uint64_t flow = session_correlation(
        getpid(), kFlowBase + next_flow_.fetch_add(1, std::memory_order_relaxed));
    host_.api()->emit_flow(host_.context(), e.flow_from_track, e.flow_from_ts, flow,
                           PROF_FLOW_BEGIN);
    host_.api()->emit_flow(host_.context(), e.track, e.begin, flow, PROF_FLOW_END);
  }
}

PcclRecorder *new_lasting_recorder(const Host &host, Detail detail) {
  static SpinLock lock;
  static auto *recorders = new std::vector<std::unique_ptr<PcclRecorder>>(); // never destroyed
  auto recorder = std::make_unique<PcclRecorder>(host, detail);
  std::lock_guard guard(lock);
  recorders->push_back(std::move(recorder));
  return recorders->back().get();
}

PcclRecorder &recorder_of(const Event *event) { return event->comm->recorder; }

PcclRecorder *installed_recorder() { return g_recorder.load(std::memory_order_acquire); }
void install_recorder(PcclRecorder *recorder) {
  g_recorder.store(recorder, std::memory_order_release);
}

} // namespace prof::pccl
