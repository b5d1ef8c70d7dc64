// The NCCL profiler-plugin interface, versions 4 to 6, as NCCL's plugin
// documentation (ext-profiler/README.md and the versioned headers) describes
// it: NCCL and NCCL-derived libraries (PCCL and the like) dlopen the file
// NCCL_PROFILER_PLUGIN names and look for `ncclProfiler_v6`, then v5, then
// v4. Only what the pccl source reads is spelled out here; a union member a
// later release adds changes no offset of those read.
#ifndef PROF_PLUGINS_PCCL_NCCL_PROFILER_ABI_HPP
#define PROF_PLUGINS_PCCL_NCCL_PROFILER_ABI_HPP

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace prof::pccl::nccl {

using Result = int; ///< ncclResult_t: 0 is ncclSuccess
inline constexpr Result kSuccess = 0;
inline constexpr Result kInternalError = 3;
using DebugLogger = void (*)(int level, unsigned long flags, const char *file, int line,
                             const char *format, ...);

/// Event types, one bit each: the activation mask is their union.
enum EventType : uint64_t {
  kGroup = 1u << 0,
  kColl = 1u << 1,
  kP2p = 1u << 2,
  kProxyOp = 1u << 3,
  kProxyStep = 1u << 4,
  kProxyCtrl = 1u << 5,
  kKernelCh = 1u << 6,
  kNetPlugin = 1u << 7,
  kGroupApi = 1u << 8,      ///< v5
  kCollApi = 1u << 9,       ///< v5
  kP2pApi = 1u << 10,       ///< v5
  kKernelLaunch = 1u << 11, ///< v5
  kCeColl = 1u << 12,       ///< v6
  kCeSync = 1u << 13,       ///< v6
  kCeBatch = 1u << 14,      ///< v6
};

/// State transitions recordEventState reports (ncclProfilerEventState_t).
enum State : int {
  kProxyOpInProgress = 19,
  kProxyStepSendGpuWait = 8,
  kProxyStepSendPeerWait = 20,
  kProxyStepSendWait = 9,
  kProxyStepRecvWait = 10,
  kProxyStepRecvFlushWait = 11,
  kProxyStepRecvGpuWait = 12,
  kProxyCtrlIdle = 13,
  kProxyCtrlActive = 14,
  kProxyCtrlSleep = 15,
  kProxyCtrlWakeup = 16,
  kProxyCtrlAppend = 17,
  kProxyCtrlAppendEnd = 18,
  kNetPluginUpdate = 21,
  kKernelChStop = 22,
  kGroupStartApiStop = 23,
  kGroupEndApiStart = 24,
};

/// Network-plugin event ids: the type above bit 16, the version below.
inline constexpr uint32_t kNetTypeIb = 1u << 16;
inline constexpr uint32_t kNetTypeSocket = 2u << 16;
inline constexpr uint32_t kNetVersionMask = 0xffffu;

/// An InfiniBand plugin's event, version 1 (type 1: a queue pair's work request).
struct NetIbEventV1 {
  uint8_t type;
  int device;
  uint64_t wr_id;
  int opcode;
  int qp_num;
  size_t length;
};
/// A socket plugin's event, version 1 (type 1: a socket operation).
struct NetSocketEventV1 {
  uint8_t type;
  int fd;
  int op;
  size_t length;
};

// Union members every version lays out alike.
struct ProxyOpDescr {
  pid_t pid;
  uint8_t channel;
  int peer;
  int steps;
  int chunk_size;
  int is_send;
};
struct ProxyStepDescr {
  int step;
};
struct KernelChDescr {
  uint8_t channel;
  uint64_t gpu_timer;
};
struct NetPluginDescr {
  int64_t id;
  void *data;
};

/// recordEventState's arguments, the same in v4, v5 and v6.
union StateArgs {
  struct {
    size_t transferred;
  } proxy_step;
  struct {
    int appended_ops;
  } proxy_ctrl;
  struct {
    void *data;
  } net_plugin;
  struct {
    uint64_t gpu_timer;
  } kernel_ch;
};

// --- v4 -------------------------------------------------------------------

struct EventDescrV4 {
  uint8_t type;
  void *parent;
  int rank;
  union {
    struct {
      uint64_t seq_number;
      const char *func;
      const void *send_buff;
      void *recv_buff;
      size_t count;
      int root;
      const char *datatype;
      uint8_t channels;
      uint8_t warps;
      const char *algo;
      const char *proto;
    } coll;
    struct {
      const char *func;
      void *buff;
      const char *datatype;
      size_t count;
      int peer;
      uint8_t channels;
    } p2p;
    ProxyOpDescr proxy_op;
    ProxyStepDescr proxy_step;
    KernelChDescr kernel_ch;
    NetPluginDescr net_plugin;
  };
};

struct ProfilerV4 {
  const char *name;
  Result (*init)(void **context, int *activation_mask, const char *comm_name, uint64_t comm_hash,
                 int nodes, int ranks, int rank, DebugLogger log);
  Result (*start_event)(void *context, void **handle, EventDescrV4 *descr);
  Result (*stop_event)(void *handle);
  Result (*record_event_state)(void *handle, int state, StateArgs *args);
  Result (*finalize)(void *context);
};

// --- v5 and v6 (v6 adds the copy-engine members to the same union) -------

struct EventDescrV5 {
  uint64_t type;
  void *parent;
  int rank;
  union {
    struct {
      bool graph_captured;
      int group_depth;
    } group_api;
    struct {
      const char *func;
      size_t count;
      const char *datatype;
      int root;
      void *stream;
      bool graph_captured;
    } coll_api;
    struct {
      const char *func;
      size_t count;
      const char *datatype;
      void *stream;
      bool graph_captured;
    } p2p_api;
    struct {
      void *stream;
    } kernel_launch;
    struct {
      uint64_t seq_number;
      const char *func;
      const void *send_buff;
      void *recv_buff;
      size_t count;
      int root;
      const char *datatype;
      uint8_t channels;
      uint8_t warps;
      const char *algo;
      const char *proto;
      void *parent_group;
    } coll;
    struct {
      const char *func;
      void *buff;
      const char *datatype;
      size_t count;
      int peer;
      uint8_t channels;
      void *parent_group;
    } p2p;
    ProxyOpDescr proxy_op;
    ProxyStepDescr proxy_step;
    KernelChDescr kernel_ch;
    NetPluginDescr net_plugin;
    // v6: work done by copy engines.
    struct {
      uint64_t seq_number;
      const char *func;
      const void *send_buff;
      void *recv_buff;
      size_t count;
      int root;
      const char *datatype;
      const char *sync_strategy;
      bool intra_batch_sync;
      uint32_t batch_size;
      uint32_t batches;
      uint32_t ce_seq_number;
      void *stream;
    } ce_coll;
    struct {
      bool is_complete;
      int ranks;
    } ce_sync;
    struct {
      int ops;
      size_t total_bytes;
      bool intra_sync;
    } ce_batch;
  };
};
using EventDescrV6 = EventDescrV5;

/// v5 and v6 share their table's shape; v6 passes the larger descriptor.
struct ProfilerV5 {
  const char *name;
  Result (*init)(void **context, uint64_t comm_id, int *activation_mask, const char *comm_name,
                 int nodes, int ranks, int rank, DebugLogger log);
  Result (*start_event)(void *context, void **handle, EventDescrV5 *descr);
  Result (*stop_event)(void *handle);
  Result (*record_event_state)(void *handle, int state, StateArgs *args);
  Result (*finalize)(void *context);
};
using ProfilerV6 = ProfilerV5;

} // namespace prof::pccl::nccl

#endif
