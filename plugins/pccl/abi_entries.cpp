// The entry points NCCL looks up: ncclProfiler_v6, v5 and v4. Each
// translates its version's descriptor into an EventStart and hands it to
// the recorder; none fails NCCL's call but init, which NCCL takes as "no
// profiler for this communicator".
#include "nccl_profiler_abi.hpp"
#include "pccl_recorder.hpp"

namespace prof::pccl {
namespace {

Kind kind_of(uint64_t type, bool *known) {
  *known = true;
  switch (type) {
  case nccl::kGroup:
    return Kind::group;
  case nccl::kColl:
    return Kind::coll;
  case nccl::kP2p:
    return Kind::p2p;
  case nccl::kProxyOp:
    return Kind::proxy_op;
  case nccl::kProxyStep:
    return Kind::proxy_step;
  case nccl::kProxyCtrl:
    return Kind::proxy_ctrl;
  case nccl::kKernelCh:
    return Kind::kernel_ch;
  case nccl::kNetPlugin:
    return Kind::net_plugin;
  case nccl::kGroupApi:
    return Kind::group_api;
  case nccl::kCollApi:
    return Kind::coll_api;
  case nccl::kP2pApi:
    return Kind::p2p_api;
  case nccl::kKernelLaunch:
    return Kind::kernel_launch;
  case nccl::kCeColl:
    return Kind::ce_coll;
  case nccl::kCeSync:
    return Kind::ce_sync;
  case nccl::kCeBatch:
    return Kind::ce_batch;
  default:
    *known = false;
    return Kind::group;
  }
}

/// The fields v4 and v5 share (same names, same order).
template <class Descr> void fill_common(const Descr &d, Kind kind, EventStart &s) {
  switch (kind) {
  case Kind::coll:
    s.has_sequence = true;
    s.sequence = d.coll.seq_number;
    s.func = d.coll.func;
    s.has_count = true;
    s.count = d.coll.count;
    s.root = d.coll.root;
    s.datatype = d.coll.datatype;
    s.channels = d.coll.channels;
    s.warps = d.coll.warps;
    s.algorithm = d.coll.algo;
    s.protocol = d.coll.proto;
    break;
  case Kind::p2p:
    s.func = d.p2p.func;
    s.datatype = d.p2p.datatype;
    s.has_count = true;
    s.count = d.p2p.count;
    s.peer = d.p2p.peer;
    s.channels = d.p2p.channels;
    break;
  case Kind::proxy_op:
    s.pid = d.proxy_op.pid; // NCCL sets it for proxy operations only
    s.channel = d.proxy_op.channel;
    s.peer = d.proxy_op.peer;
    s.steps = d.proxy_op.steps;
    s.chunk_bytes = d.proxy_op.chunk_size;
    s.is_send = d.proxy_op.is_send;
    break;
  case Kind::proxy_step:
    s.step = d.proxy_step.step;
    break;
  case Kind::kernel_ch:
    s.channel = d.kernel_ch.channel;
    s.gpu_timer = d.kernel_ch.gpu_timer;
    break;
  case Kind::net_plugin:
    s.net_id = d.net_plugin.id;
    s.net_data = d.net_plugin.data;
    break;
  default:
    break;
  }
}

bool translate(const nccl::EventDescrV4 &d, EventStart &s) {
  bool known = false;
  s.kind = kind_of(d.type, &known);
  // v4 has none of the API or copy-engine events.
  if (!known || d.type > nccl::kNetPlugin) return false;
  s.parent = d.parent;
  s.rank = d.rank;
  fill_common(d, s.kind, s);
  return true;
}

bool translate(const nccl::EventDescrV5 &d, bool v6, EventStart &s) {
  bool known = false;
  s.kind = kind_of(d.type, &known);
  if (!known || (!v6 && d.type > nccl::kKernelLaunch)) return false;
  s.parent = d.parent;
  s.rank = d.rank;
  fill_common(d, s.kind, s);
  switch (s.kind) {
  case Kind::group_api:
    s.graph_captured = d.group_api.graph_captured;
    s.group_depth = d.group_api.group_depth;
    break;
  case Kind::coll_api:
    s.func = d.coll_api.func;
    s.has_count = true;
    s.count = d.coll_api.count;
    s.datatype = d.coll_api.datatype;
    s.root = d.coll_api.root;
    s.stream = d.coll_api.stream;
    s.graph_captured = d.coll_api.graph_captured;
    break;
  case Kind::p2p_api:
    s.func = d.p2p_api.func;
    s.has_count = true;
    s.count = d.p2p_api.count;
    s.datatype = d.p2p_api.datatype;
    s.stream = d.p2p_api.stream;
    s.graph_captured = d.p2p_api.graph_captured;
    break;
  case Kind::kernel_launch:
    s.stream = d.kernel_launch.stream;
    break;
  case Kind::ce_coll:
    s.has_sequence = true;
    s.sequence = d.ce_coll.seq_number;
    s.func = d.ce_coll.func;
    s.has_count = true;
    s.count = d.ce_coll.count;
    s.root = d.ce_coll.root;
    s.datatype = d.ce_coll.datatype;
    s.sync_strategy = d.ce_coll.sync_strategy;
    s.stream = d.ce_coll.stream;
    break;
  case Kind::ce_sync:
    s.sync_ranks = d.ce_sync.ranks;
    break;
  case Kind::ce_batch:
    s.ops = d.ce_batch.ops;
    s.total_bytes = d.ce_batch.total_bytes;
    break;
  default:
    break;
  }
  return true;
}

nccl::Result open_communicator(void **context, uint64_t hash, int *mask, const char *name,
                               int ranks, int rank) {
  PcclRecorder *recorder = installed_recorder();
  if (context == nullptr || recorder == nullptr) return nccl::kInternalError;
  *context = recorder->open(hash, name, ranks, rank, mask);
  return nccl::kSuccess;
}

nccl::Result finalize(void *context) {
  if (auto *comm = static_cast<Communicator *>(context)) comm->recorder.close(comm);
  return nccl::kSuccess;
}

nccl::Result start_event(void *context, void **handle, const EventStart *start) {
  if (handle == nullptr) return nccl::kSuccess;
  *handle = nullptr;
  auto *comm = static_cast<Communicator *>(context);
  if (comm != nullptr && start != nullptr) *handle = comm->recorder.start(comm, *start);
  return nccl::kSuccess;
}

nccl::Result stop_event(void *handle) {
  if (auto *event = static_cast<Event *>(handle)) recorder_of(event).stop(event);
  return nccl::kSuccess;
}

nccl::Result record_state(void *handle, int state, nccl::StateArgs *args) {
  auto *event = static_cast<Event *>(handle);
  if (event == nullptr) return nccl::kSuccess;
  StateUpdate update;
  update.state = state;
  if (args != nullptr) {
    update.has_args = true;
    // Each member is read only for the state that carries it.
    if ((state >= nccl::kProxyStepSendGpuWait && state <= nccl::kProxyStepRecvGpuWait) ||
        state == nccl::kProxyStepSendPeerWait)
      update.transferred = args->proxy_step.transferred;
    else if (state >= nccl::kProxyCtrlIdle && state <= nccl::kProxyCtrlAppendEnd)
      update.appended_ops = args->proxy_ctrl.appended_ops;
    else if (state == nccl::kKernelChStop)
      update.gpu_timer = args->kernel_ch.gpu_timer;
    else if (state == nccl::kNetPluginUpdate)
      update.net_data = args->net_plugin.data;
    else
      update.has_args = false;
  }
  recorder_of(event).update(event, update);
  return nccl::kSuccess;
}

// --- v4 ---

nccl::Result init_v4(void **context, int *mask, const char *name, uint64_t hash, int /*nodes*/,
                     int ranks, int rank, nccl::DebugLogger) {
  return open_communicator(context, hash, mask, name, ranks, rank);
}
nccl::Result start_v4(void *context, void **handle, nccl::EventDescrV4 *descr) {
  EventStart start;
  const bool known = descr != nullptr && translate(*descr, start);
  return start_event(context, handle, known ? &start : nullptr);
}

// --- v5 and v6 ---

nccl::Result init_v5(void **context, uint64_t comm_id, int *mask, const char *name, int /*nodes*/,
                     int ranks, int rank, nccl::DebugLogger) {
  return open_communicator(context, comm_id, mask, name, ranks, rank);
}
nccl::Result start_v5(void *context, void **handle, nccl::EventDescrV5 *descr) {
  EventStart start;
  const bool known = descr != nullptr && translate(*descr, false, start);
  return start_event(context, handle, known ? &start : nullptr);
}
nccl::Result start_v6(void *context, void **handle, nccl::EventDescrV6 *descr) {
  EventStart start;
  const bool known = descr != nullptr && translate(*descr, true, start);
  return start_event(context, handle, known ? &start : nullptr);
}

} // namespace
} // namespace prof::pccl

using namespace prof::pccl;

extern "C" {
// What NCCL dlopens and looks up, newest first.
__attribute__((visibility("default"))) nccl::ProfilerV6 ncclProfiler_v6 = {
    "prof", &init_v5, &start_v6, &stop_event, &record_state, &finalize};
__attribute__((visibility("default"))) nccl::ProfilerV5 ncclProfiler_v5 = {
    "prof", &init_v5, &start_v5, &stop_event, &record_state, &finalize};
__attribute__((visibility("default"))) nccl::ProfilerV4 ncclProfiler_v4 = {
    "prof", &init_v4, &start_v4, &stop_event, &record_state, &finalize};
}
