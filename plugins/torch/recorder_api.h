/* What prof's torch source offers its PyTorch bridge (_prof_torch, a Python
 * extension built against libtorch): the bridge registers PyTorch's
 * RecordFunction callbacks and hands each call over in these plain structs;
 * the source, which never links torch, records them. The bridge finds the
 * source, preloaded into the process, by PROF_TORCH_RECORDER_SYMBOL. Private
 * to the torch plugin. */
#ifndef PROF_PLUGINS_TORCH_RECORDER_API_H
#define PROF_PLUGINS_TORCH_RECORDER_API_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define PROF_TORCH_RECORDER_SYMBOL "prof_torch_recorder"
#define PROF_TORCH_RECORDER_VERSION 4
/* prof_torch_group::sequence_base when the group's own count is not known. */
#define PROF_TORCH_SEQUENCE_UNKNOWN UINT64_MAX

/* What a call is, from RecordFunction's scope and name. */
enum prof_torch_call_kind {
  PROF_TORCH_OPERATOR = 0,       /* an operator (aten::mm, c10d::allreduce_) */
  PROF_TORCH_BACKWARD_NODE = 1,  /* an autograd node run backward (AddmmBackward0) */
  PROF_TORCH_USER_RANGE = 2,     /* record_function(), DDP.forward, Optimizer.step#SGD.step */
  PROF_TORCH_COLLECTIVE = 3      /* a backend's collective (gloo:all_reduce) */
};

/* One call as its start callback sees it. Strings live until the call returns. */
typedef struct prof_torch_call {
  const char *name;
  uint32_t kind;            /* prof_torch_call_kind */
  int64_t sequence;         /* autograd sequence number, -1 none */
  uint64_t thread;          /* torch's number of the calling thread */
  uint64_t forward_thread;  /* a backward node: its forward's thread, 0 none */
  const void *group;        /* a c10d operator's process group, NULL none */
  uint64_t first_tensor;    /* identity of the first input tensor, 0 none */
  int64_t elements;         /* elements of the input tensors, -1 unknown */
  int64_t bytes;            /* their bytes, -1 unknown */
  const char *dtype;        /* the first tensor's element type, NULL none */
  const char *shapes;       /* "[[2, 8], []]" when shapes are recorded, else NULL */
  const char *types;        /* "[float, Scalar]" likewise */
  uint64_t group_sequence;  /* the group's own count of its operations before this
                               one (torch's, gloo and nccl), 0 unknown */
} prof_torch_call;

/* What the source keeps of a call between its start and end callbacks; the
 * bridge stores it untouched. */
typedef struct prof_torch_open_call {
  uint64_t words[6];
} prof_torch_open_call;

/* A process group as the bridge or Python knows it. */
typedef struct prof_torch_group {
  const void *group;        /* the ProcessGroup's address: its identity */
  const char *name;         /* its name, the same on every member; NULL unknown */
  const char *backend;      /* "gloo", "nccl", ... */
  int32_t rank, size;       /* this process's rank in it, its size */
  const int64_t *ranks;     /* its members' global ranks, NULL unknown */
  size_t rank_count;
  uint64_t sequence_base;   /* the group's own count when it was made, the same
                               on every member (its group_sequence before its
                               first operation: drawn by rank 0 on 1.x, 0 on
                               2.x), PROF_TORCH_SEQUENCE_UNKNOWN unknown */
} prof_torch_group;

typedef struct prof_torch_recorder_api {
  uint32_t version; /* PROF_TORCH_RECORDER_VERSION */
  /* Whether calls are recorded now; when 0 the bridge calls nothing else. */
  int (*recording)(void);
  /* Whether start callbacks should fill shapes and types. */
  int (*wants_shapes)(void);
  /* A call begins on this thread; fills `open`. */
  void (*begin)(const prof_torch_call *call, prof_torch_open_call *open);
  /* The call begun with `open` ends (on any thread). */
  void (*end)(prof_torch_open_call *open);
  /* Names a process group (again: the newer facts win). */
  void (*name_group)(const prof_torch_group *group);
  /* Whether the group at this address was named already. */
  int (*knows_group)(const void *group);
  /* A warning for the user, once per text. */
  void (*warn)(const char *text);
  /* Whether the allocator's blocks should be reported (version 2). */
  int (*wants_memory)(void);
  /* The allocator gave `bytes` at `address` to this thread's caller. */
  void (*allocated)(const void *address, uint64_t bytes);
  /* The block at `address` went back to the allocator (one not reported
   * allocated is ignored). */
  void (*freed)(const void *address);
} prof_torch_recorder_api;

typedef const prof_torch_recorder_api *(*prof_torch_recorder_fn)(void);

#ifdef __cplusplus
}
#endif

#endif
