/* Drives a profiler plugin exactly as NCCL does, without NCCL or a GPU: it
 * dlopens the file NCCL_PROFILER_PLUGIN names (RTLD_NOW | RTLD_LOCAL, the
 * file already loaded), looks up ncclProfiler_vN and, failing that, each
 * older table down to v4, as a NCCL whose newest interface is N does
 * (N from argv[1]: 4, 5 or 6; NCCL 2.28 is 5). Every communicator's init
 * gets the address of one activation mask, as NCCL's one process-wide
 * ncclProfilerEventMask. For two communicators ("NCCL 0x...",
 * 4 ranks, this rank 1; and "tp" with 2 ranks, this rank 0) runs, on a user
 * thread per communicator and one proxy thread:
 *   per iteration i < ITERATIONS: [v5+ group API > collective API,
 *   kernel launch] group > AllReduce (1024 floats, seq i, Ring/Simple,
 *   2 channels), stopped once enqueued; then the proxy's events for it:
 *   per channel a send proxy operation to peer (rank+1)%n with two steps
 *   (states GPU wait, send wait, 4096 bytes moved), one IB network event
 *   under the first step, and a kernel channel with GPU timers;
 *   every 5th iteration a Send of 256 int64 to peer 0 in the group (v5+:
 *   after its API event, the parent of its task as a collective API event
 *   is of its collective).
 *   v6 also runs one copy-engine AllGather per iteration.
 * The proxy thread's control event goes idle > active > sleep once.
 * The events NCCL would start while the plugin's mask says no are not
 * started. With NCCL_HARNESS_RELEASE=FILE, a hang on demand until FILE
 * exists (60 s at most), announced on stdout: NCCL_HARNESS_HANG_AT=K, the
 * first communicator's all-reduce K hangs as one whose peers never came
 * (its kernel channel 0 runs on); NCCL_HARNESS_STALL_BEFORE=K, the user
 * thread stops before enqueuing it, as a rank stuck in its own code.
 * NCCL_HARNESS_RANK=R makes this rank R of the first communicator (1).
 * Exits 0, or 2 when the plugin cannot be used. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#define ITERATIONS 20
#define CHANNELS 2

enum {
  Group = 1 << 0,
  Coll = 1 << 1,
  P2p = 1 << 2,
  ProxyOp = 1 << 3,
  ProxyStep = 1 << 4,
  ProxyCtrl = 1 << 5,
  KernelCh = 1 << 6,
  NetPlugin = 1 << 7,
  GroupApi = 1 << 8,
  CollApi = 1 << 9,
  P2pApi = 1 << 10,
  KernelLaunch = 1 << 11,
  CeColl = 1 << 12
};
enum {
  ProxyOpInProgress = 19,
  StepSendGpuWait = 8,
  StepSendWait = 9,
  CtrlIdle = 13,
  CtrlActive = 14,
  CtrlSleep = 15,
  KernelChStop = 22,
  GroupStartApiStop = 23,
  GroupEndApiStart = 24
};

typedef void (*logger_t)(int, unsigned long, const char *, int, const char *, ...);

typedef struct {
  uint8_t type;
  void *parentObj;
  int rank;
  union {
    struct {
      uint64_t seqNumber;
      const char *func;
      const void *sendBuff;
      void *recvBuff;
      size_t count;
      int root;
      const char *datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char *algo;
      const char *proto;
    } coll;
    struct {
      const char *func;
      void *buff;
      const char *datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void *data;
    } netPlugin;
  };
} descr_v4;

typedef struct {
  uint64_t type;
  void *parentObj;
  int rank;
  union {
    struct {
      bool graphCaptured;
      int groupDepth;
    } groupApi;
    struct {
      const char *func;
      size_t count;
      const char *datatype;
      int root;
      void *stream;
      bool graphCaptured;
    } collApi;
    struct {
      const char *func;
      size_t count;
      const char *datatype;
      void *stream;
      bool graphCaptured;
    } p2pApi;
    struct {
      void *stream;
    } kernelLaunch;
    struct {
      uint64_t seqNumber;
      const char *func;
      const void *sendBuff;
      void *recvBuff;
      size_t count;
      int root;
      const char *datatype;
      uint8_t nChannels;
      uint8_t nWarps;
      const char *algo;
      const char *proto;
      void *parentGroup;
    } coll;
    struct {
      const char *func;
      void *buff;
      const char *datatype;
      size_t count;
      int peer;
      uint8_t nChannels;
      void *parentGroup;
    } p2p;
    struct {
      pid_t pid;
      uint8_t channelId;
      int peer;
      int nSteps;
      int chunkSize;
      int isSend;
    } proxyOp;
    struct {
      int step;
    } proxyStep;
    struct {
      uint8_t channelId;
      uint64_t pTimer;
    } kernelCh;
    struct {
      int64_t id;
      void *data;
    } netPlugin;
    struct {
      uint64_t seqNumber;
      const char *func;
      const void *sendBuff;
      void *recvBuff;
      size_t count;
      int root;
      const char *datatype;
      const char *syncStrategy;
      bool intraBatchSync;
      uint32_t batchSize;
      uint32_t numBatches;
      uint32_t ceSeqNum;
      void *stream;
    } ceColl;
  };
} descr_v5;

typedef union {
  struct {
    size_t transSize;
  } proxyStep;
  struct {
    int appendedProxyOps;
  } proxyCtrl;
  struct {
    void *data;
  } netPlugin;
  struct {
    uint64_t pTimer;
  } kernelCh;
} state_args;

typedef struct {
  const char *name;
  int (*init)(void **, int *, const char *, uint64_t, int, int, int, logger_t);
  int (*startEvent)(void *, void **, descr_v4 *);
  int (*stopEvent)(void *);
  int (*recordEventState)(void *, int, state_args *);
  int (*finalize)(void *);
} profiler_v4;

typedef struct {
  const char *name;
  int (*init)(void **, uint64_t, int *, const char *, int, int, int, logger_t);
  int (*startEvent)(void *, void **, descr_v5 *);
  int (*stopEvent)(void *);
  int (*recordEventState)(void *, int, state_args *);
  int (*finalize)(void *);
} profiler_v5;

typedef struct {
  uint8_t type;
  int device;
  uint64_t wr_id;
  int opcode;
  int qpNum;
  size_t length;
} ib_event_v1;

static int version;
static profiler_v4 *v4;
static profiler_v5 *v5;

/* One descriptor filled as the version lays it out. */
typedef struct {
  uint64_t type;
  void *parent;
  int rank;
  descr_v4 d4;
  descr_v5 d5;
} descr;

static void set_type(descr *d, uint64_t type, void *parent, int rank) {
  memset(d, 0, sizeof *d);
  d->type = type;
  d->d4.type = (uint8_t)type;
  d->d5.type = type;
  d->d4.parentObj = parent;
  d->d5.parentObj = parent;
  d->d4.rank = rank;
  d->d5.rank = rank;
}

static void *start(void *context, descr *d) {
  void *handle = NULL;
  if (version == 4)
    v4->startEvent(context, &handle, &d->d4);
  else
    v5->startEvent(context, &handle, &d->d5);
  return handle;
}
static void stop(void *handle) {
  if (handle == NULL) return;
  if (version == 4)
    v4->stopEvent(handle);
  else
    v5->stopEvent(handle);
}
static void state(void *handle, int s, state_args *args) {
  if (handle == NULL) return;
  if (version == 4)
    v4->recordEventState(handle, s, args);
  else
    v5->recordEventState(handle, s, args);
}

typedef struct {
  void *context;
  int *mask;
  uint64_t hash;
  const char *name;
  int ranks, rank;
  /* Handed from the user thread to the proxy thread, one at a time. */
  pthread_mutex_t lock;
  pthread_cond_t ready, taken;
  void *pending;
  int pending_iteration;
  bool pending_is_p2p;
  bool done;
} comm;

static void hand_to_proxy(comm *c, void *coll, int iteration, bool p2p) {
  pthread_mutex_lock(&c->lock);
  while (c->pending != NULL)
    pthread_cond_wait(&c->taken, &c->lock);
  c->pending = coll;
  c->pending_iteration = iteration;
  c->pending_is_p2p = p2p;
  pthread_cond_signal(&c->ready);
  pthread_mutex_unlock(&c->lock);
}

static int active(comm *c, int type) {
  return (__atomic_load_n(c->mask, __ATOMIC_RELAXED) & type) != 0;
}

/* Until NCCL_HARNESS_RELEASE's file exists, 60 s at most. */
static void wait_for_release(void) {
  const char *release = getenv("NCCL_HARNESS_RELEASE");
  for (int i = 0; release != NULL && i < 6000 && access(release, F_OK) != 0; ++i)
    usleep(10000);
}

/* The first communicator's all-reduce `iteration` is NCCL_HARNESS_`name`. */
static bool asked_at(const char *name, const comm *c, int iteration) {
  char variable[64];
  snprintf(variable, sizeof variable, "NCCL_HARNESS_%s", name);
  const char *at = getenv(variable);
  return at != NULL && getenv("NCCL_HARNESS_RELEASE") != NULL && atoi(at) == iteration &&
         c->name == NULL;
}

/* NCCL_HARNESS_HANG_AT's all-reduce on the first communicator: a kernel
 * channel that runs until the release file exists. */
static void hang_if_asked(comm *c, void *parent, int iteration, bool p2p) {
  if (p2p || !asked_at("HANG_AT", c, iteration) || !active(c, KernelCh)) return;
  descr d;
  set_type(&d, KernelCh, parent, c->rank);
  d.d4.kernelCh.channelId = d.d5.kernelCh.channelId = 0;
  d.d4.kernelCh.pTimer = d.d5.kernelCh.pTimer = 1000000 + (uint64_t)iteration * 1000;
  void *kernel = start(c->context, &d);
  printf("nccl-harness: all-reduce %d hangs\n", iteration);
  fflush(stdout);
  wait_for_release();
  stop(kernel);
}

static void proxy_work(comm *c, void *parent, int iteration, bool p2p) {
  static ib_event_v1 ib = {1, 0, 77, 2, 9, 4096};
  hang_if_asked(c, parent, iteration, p2p);
  for (int ch = 0; ch < CHANNELS; ++ch) {
    descr d;
    void *op = NULL;
    if (active(c, ProxyOp)) {
      set_type(&d, ProxyOp, parent, c->rank);
      d.d4.proxyOp.pid = d.d5.proxyOp.pid = getpid();
      d.d4.proxyOp.channelId = d.d5.proxyOp.channelId = (uint8_t)ch;
      d.d4.proxyOp.peer = d.d5.proxyOp.peer = p2p ? 0 : (c->rank + 1) % c->ranks;
      d.d4.proxyOp.nSteps = d.d5.proxyOp.nSteps = 2;
      d.d4.proxyOp.chunkSize = d.d5.proxyOp.chunkSize = 4096;
      d.d4.proxyOp.isSend = d.d5.proxyOp.isSend = 1;
      op = start(c->context, &d);
      state(op, ProxyOpInProgress, NULL);
    }
    for (int s = 0; s < 2 && op != NULL; ++s) {
      void *step = NULL;
      if (active(c, ProxyStep)) {
        set_type(&d, ProxyStep, op, c->rank);
        d.d4.proxyStep.step = d.d5.proxyStep.step = iteration * 2 + s;
        step = start(c->context, &d);
        state_args args = {.proxyStep = {0}};
        state(step, StepSendGpuWait, &args);
        args.proxyStep.transSize = 4096;
        state(step, StepSendWait, &args);
      }
      if (s == 0 && step != NULL && active(c, NetPlugin)) {
        set_type(&d, NetPlugin, step, c->rank);
        d.d4.netPlugin.id = d.d5.netPlugin.id = (1 << 16) | 1; /* IB, version 1 */
        d.d4.netPlugin.data = d.d5.netPlugin.data = &ib;
        stop(start(c->context, &d));
      }
      stop(step);
    }
    stop(op);
    if (active(c, KernelCh)) {
      set_type(&d, KernelCh, parent, c->rank);
      d.d4.kernelCh.channelId = d.d5.kernelCh.channelId = (uint8_t)ch;
      d.d4.kernelCh.pTimer = d.d5.kernelCh.pTimer = 1000000 + (uint64_t)iteration * 1000;
      void *kernel = start(c->context, &d);
      state_args args = {.kernelCh = {1000000 + (uint64_t)iteration * 1000 + 250}};
      state(kernel, KernelChStop, &args);
      stop(kernel);
    }
  }
}

static void *proxy_thread(void *arg) {
  comm *c = arg;
  for (;;) {
    pthread_mutex_lock(&c->lock);
    while (c->pending == NULL && !c->done)
      pthread_cond_wait(&c->ready, &c->lock);
    if (c->pending == NULL && c->done) {
      pthread_mutex_unlock(&c->lock);
      return NULL;
    }
    void *parent = c->pending;
    const int iteration = c->pending_iteration;
    const bool p2p = c->pending_is_p2p;
    c->pending = NULL;
    pthread_cond_signal(&c->taken);
    pthread_mutex_unlock(&c->lock);
    proxy_work(c, parent, iteration, p2p);
  }
}

static void *user_thread(void *arg) {
  comm *c = arg;
  float send[4], recv[4];
  for (int i = 0; i < ITERATIONS; ++i) {
    if (asked_at("STALL_BEFORE", c, i)) {
      printf("nccl-harness: stalls before all-reduce %d\n", i);
      fflush(stdout);
      wait_for_release();
    }
    descr d;
    void *group_api = NULL, *coll_api = NULL;
    if (version >= 5 && active(c, GroupApi)) {
      set_type(&d, GroupApi, NULL, c->rank);
      d.d5.groupApi.groupDepth = 1;
      group_api = start(c->context, &d);
      state(group_api, GroupStartApiStop, NULL);
    }
    /* From v5 on a task's parent is its API event, stopped by then (NCCL
     * 2.28: collTaskAppend stops it before the launch starts the task). */
    if (version >= 5 && active(c, CollApi)) {
      set_type(&d, CollApi, group_api, c->rank);
      d.d5.collApi.func = "AllReduce";
      d.d5.collApi.count = 1024;
      d.d5.collApi.datatype = "ncclFloat32";
      d.d5.collApi.root = 0;
      d.d5.collApi.stream = (void *)0x5000;
      coll_api = start(c->context, &d);
      stop(coll_api);
    }
    if (group_api) state(group_api, GroupEndApiStart, NULL);
    void *group = NULL;
    if (active(c, Group)) {
      set_type(&d, Group, NULL, c->rank);
      group = start(c->context, &d);
    }
    void *coll = NULL;
    if (active(c, Coll)) {
      set_type(&d, Coll, group, c->rank);
      d.d4.coll.seqNumber = d.d5.coll.seqNumber = (uint64_t)i;
      d.d4.coll.func = d.d5.coll.func = "AllReduce";
      d.d4.coll.sendBuff = d.d5.coll.sendBuff = send;
      d.d4.coll.recvBuff = d.d5.coll.recvBuff = recv;
      d.d4.coll.count = d.d5.coll.count = 1024;
      d.d4.coll.root = d.d5.coll.root = 0;
      d.d4.coll.datatype = d.d5.coll.datatype = "ncclFloat32";
      d.d4.coll.nChannels = d.d5.coll.nChannels = CHANNELS;
      d.d4.coll.nWarps = d.d5.coll.nWarps = 8;
      d.d4.coll.algo = d.d5.coll.algo = "Ring";
      d.d4.coll.proto = d.d5.coll.proto = "Simple";
      d.d5.coll.parentGroup = group;
      d.d5.parentObj = coll_api;
      coll = start(c->context, &d);
    }
    void *p2p = NULL, *p2p_api = NULL;
    if (i % 5 == 4 && version >= 5 && active(c, P2pApi)) {
      set_type(&d, P2pApi, group_api, c->rank);
      d.d5.p2pApi.func = "Send";
      d.d5.p2pApi.count = 256;
      d.d5.p2pApi.datatype = "ncclInt64";
      d.d5.p2pApi.stream = (void *)0x5000;
      p2p_api = start(c->context, &d);
      stop(p2p_api);
    }
    if (i % 5 == 4 && active(c, P2p)) {
      set_type(&d, P2p, group, c->rank);
      d.d4.p2p.func = d.d5.p2p.func = "Send";
      d.d4.p2p.buff = d.d5.p2p.buff = send;
      d.d4.p2p.datatype = d.d5.p2p.datatype = "ncclInt64";
      d.d4.p2p.count = d.d5.p2p.count = 256;
      d.d4.p2p.peer = d.d5.p2p.peer = 0;
      d.d4.p2p.nChannels = d.d5.p2p.nChannels = 1;
      d.d5.p2p.parentGroup = group;
      d.d5.parentObj = p2p_api;
      p2p = start(c->context, &d);
    }
    if (version >= 5 && active(c, KernelLaunch)) {
      set_type(&d, KernelLaunch, group, c->rank);
      d.d5.kernelLaunch.stream = (void *)0x5000;
      stop(start(c->context, &d));
    }
    /* Enqueued: NCCL stops the collective, then the proxy and kernel report on it. */
    stop(coll);
    stop(p2p);
    stop(group);
    stop(group_api);
    if (coll) hand_to_proxy(c, coll, i, false);
    if (p2p) hand_to_proxy(c, p2p, i, true);
    if (version >= 6 && active(c, CeColl)) {
      set_type(&d, CeColl, NULL, c->rank);
      d.d5.ceColl.seqNumber = (uint64_t)(ITERATIONS + i);
      d.d5.ceColl.func = "AllGather";
      d.d5.ceColl.count = 512;
      d.d5.ceColl.datatype = "ncclBfloat16";
      d.d5.ceColl.syncStrategy = "barrier";
      stop(start(c->context, &d));
    }
  }
  return NULL;
}

int main(int argc, char **argv) {
  version = argc > 1 ? atoi(argv[1]) : 0;
  const char *path = getenv("NCCL_PROFILER_PLUGIN");
  if ((version < 4 || version > 6) || path == NULL || *path == '\0') {
    fprintf(stderr, "usage: NCCL_PROFILER_PLUGIN=FILE nccl-harness 4|5|6\n");
    return 2;
  }
  void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
  if (library == NULL) {
    fprintf(stderr, "nccl-harness: %s\n", dlerror());
    return 2;
  }
  /* Newest first, as NCCL's ncclProfilerPluginLoad: the first table found is used. */
  void *table = NULL;
  const int asked = version;
  for (; version >= 4 && table == NULL; --version) {
    char symbol[32];
    snprintf(symbol, sizeof symbol, "ncclProfiler_v%d", version);
    table = dlsym(library, symbol);
  }
  ++version;
  if (table == NULL || version != asked) {
    fprintf(stderr, "nccl-harness: no ncclProfiler_v%d in %s (found v%d)\n", asked, path,
            table ? version : 0);
    return 2;
  }
  if (version == 4)
    v4 = table;
  else
    v5 = table;

  static int mask; /* NCCL's ncclProfilerEventMask: one for every communicator */
  const char *rank = getenv("NCCL_HARNESS_RANK");
  comm comms[2] = {{.hash = 0xabcdef0123456789ull,
                    .name = NULL,
                    .ranks = 4,
                    .rank = rank != NULL ? atoi(rank) : 1},
                   {.hash = 0x42ull, .name = "tp", .ranks = 2, .rank = 0}};
  for (int k = 0; k < 2; ++k) {
    comm *c = &comms[k];
    c->mask = &mask;
    pthread_mutex_init(&c->lock, NULL);
    pthread_cond_init(&c->ready, NULL);
    pthread_cond_init(&c->taken, NULL);
    int rc = version == 4
                 ? v4->init(&c->context, c->mask, c->name, c->hash, 1, c->ranks, c->rank, NULL)
                 : v5->init(&c->context, c->hash, c->mask, c->name, 1, c->ranks, c->rank, NULL);
    if (rc != 0) {
      fprintf(stderr, "nccl-harness: init failed (%d)\n", rc);
      return 2;
    }
  }
  /* The proxy thread's control event, on the first communicator. */
  void *ctrl = NULL;
  if (active(&comms[0], ProxyCtrl)) {
    descr d;
    set_type(&d, ProxyCtrl, NULL, comms[0].rank);
    ctrl = start(comms[0].context, &d);
    state_args args = {.proxyCtrl = {0}};
    state(ctrl, CtrlIdle, &args);
    usleep(1000);
    state(ctrl, CtrlActive, &args);
  }
  pthread_t users[2], proxies[2];
  for (int k = 0; k < 2; ++k) {
    pthread_create(&proxies[k], NULL, proxy_thread, &comms[k]);
    pthread_create(&users[k], NULL, user_thread, &comms[k]);
  }
  for (int k = 0; k < 2; ++k) {
    pthread_join(users[k], NULL);
    pthread_mutex_lock(&comms[k].lock);
    while (comms[k].pending != NULL)
      pthread_cond_wait(&comms[k].taken, &comms[k].lock);
    comms[k].done = true;
    pthread_cond_signal(&comms[k].ready);
    pthread_mutex_unlock(&comms[k].lock);
    pthread_join(proxies[k], NULL);
  }
  if (ctrl) {
    state_args args = {.proxyCtrl = {3}};
    state(ctrl, CtrlSleep, &args);
    usleep(1000);
    stop(ctrl);
  }
  for (int k = 0; k < 2; ++k) {
    if (version == 4)
      v4->finalize(comms[k].context);
    else
      v5->finalize(comms[k].context);
  }
  return 0;
}
