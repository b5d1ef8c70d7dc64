// What an NCCL profiler event says when it starts, whatever the interface
// version that reported it: each version's entry points translate their
// descriptor into this, and the recorder reads only this.
#ifndef PROF_PLUGINS_PCCL_PCCL_EVENT_HPP
#define PROF_PLUGINS_PCCL_PCCL_EVENT_HPP

#include <sys/types.h>

#include <cstddef>
#include <cstdint>

namespace prof::pccl {

enum class Kind : uint8_t {
  group,         ///< a group of operations NCCL launches together
  coll,          ///< a collective as NCCL enqueues it
  p2p,           ///< a send or receive as NCCL enqueues it
  proxy_op,      ///< the proxy thread's work for one channel and peer
  proxy_step,    ///< one network transfer of a proxy operation
  proxy_ctrl,    ///< the proxy thread outside of transfers
  kernel_ch,     ///< one channel of the device kernel
  net_plugin,    ///< an event the network plugin defines
  group_api,     ///< ncclGroupStart .. ncclGroupEnd (v5)
  coll_api,      ///< the application's collective call (v5)
  p2p_api,       ///< the application's ncclSend/ncclRecv (v5)
  kernel_launch, ///< NCCL launching its kernel (v5)
  ce_coll,       ///< a collective done by copy engines (v6)
  ce_sync,       ///< a copy-engine synchronization (v6)
  ce_batch,      ///< a batch of copy-engine copies (v6)
};

/// A field left at its default is not known for the event.
struct EventStart {
  Kind kind = Kind::group;
  void *parent = nullptr; ///< the parent's handle, as this plugin returned it
  int rank = -1;
  const char *func = nullptr;
  const char *datatype = nullptr;
  const char *algorithm = nullptr;
  const char *protocol = nullptr;
  const char *sync_strategy = nullptr;
  bool has_sequence = false;
  uint64_t sequence = 0;
  bool has_count = false;
  size_t count = 0;
  int root = -1;
  int peer = -1;
  int channels = -1;
  int warps = -1;
  pid_t pid = 0; ///< a proxy operation's process: another one's parent is not ours to read
  int channel = -1;
  int steps = -1;
  int chunk_bytes = -1;
  int is_send = -1;
  int step = -1;
  int group_depth = -1;
  int ops = -1;
  int sync_ranks = -1;
  int graph_captured = -1;
  uint64_t gpu_timer = 0;
  size_t total_bytes = 0;
  int64_t net_id = 0;
  const void *net_data = nullptr;
  const void *stream = nullptr;
};

/// What a state transition carries (recordEventState's arguments).
struct StateUpdate {
  int state = 0;
  bool has_args = false;
  size_t transferred = 0; ///< proxy step: bytes moved so far
  int appended_ops = -1;  ///< proxy control
  uint64_t gpu_timer = 0; ///< kernel channel stop
  const void *net_data = nullptr;
};

} // namespace prof::pccl

#endif
