// The two-rank NCCL case of tools/gpu-check. NCCL issues a one-rank
// communicator's collectives as copies (2.28: taskAppend's nRanks == 1 path)
// and reports none of them to a profiler plugin, so this runs two ranks:
// two processes, rank r on GPU r % GPUs. On a machine with one GPU each rank
// names another host (NCCL_HOSTID) and they meet over sockets on lo, as two
// nodes would. Each rank makes two communicators, "world" and its split
// "pair", runs 20 all-reduces of 1 Mi floats on world and 5 send/receive
// exchanges of 64 Ki floats with the other rank on pair, each NCCL call inside
// an NVTX range ("nccl all-reduce", "nccl exchange").
//
// usage: nccl_ranks_sample [EXIT_CODE]   exits EXIT_CODE (default 0) when
// both ranks succeed, 1 otherwise: a profiler that harms it shows.
#include <cuda_runtime.h>
#include <nccl.h>
#include <nvtx3/nvToolsExt.h>

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#define CHECK_CUDA(call)                                                                           \
  do {                                                                                             \
    cudaError_t e = (call);                                                                        \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "rank %d: %s: %s\n", rank, #call, cudaGetErrorString(e));               \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)
#define CHECK_NCCL(call)                                                                           \
  do {                                                                                             \
    ncclResult_t r = (call);                                                                       \
    if (r != ncclSuccess) {                                                                        \
      std::fprintf(stderr, "rank %d: %s: %s\n", rank, #call, ncclGetErrorString(r));               \
      return 1;                                                                                    \
    }                                                                                              \
  } while (0)

namespace {

constexpr int kRanks = 2;
constexpr size_t kCount = size_t{1} << 20, kExchange = size_t{1} << 16;

// Rank 0 makes the id and writes it to `id_pipe`; rank 1 reads it.
int run_rank(int rank, int gpus, int id_pipe[2]) {
  if (gpus < kRanks) {
    const std::string host = "prof-gpu-check-rank-" + std::to_string(rank);
    setenv("NCCL_HOSTID", host.c_str(), 1);
    setenv("NCCL_SOCKET_IFNAME", "lo", 0);
    setenv("NCCL_IB_DISABLE", "1", 0);
  }
  ncclUniqueId id;
  if (rank == 0) {
    CHECK_NCCL(ncclGetUniqueId(&id));
    if (write(id_pipe[1], &id, sizeof id) != static_cast<ssize_t>(sizeof id)) return 1;
  } else if (read(id_pipe[0], &id, sizeof id) != static_cast<ssize_t>(sizeof id)) {
    return 1;
  }
  CHECK_CUDA(cudaSetDevice(rank % gpus));
  ncclConfig_t world_config = NCCL_CONFIG_INITIALIZER;
  world_config.commName = "world";
  ncclComm_t world, pair;
  CHECK_NCCL(ncclCommInitRankConfig(&world, kRanks, id, rank, &world_config));
  ncclConfig_t pair_config = NCCL_CONFIG_INITIALIZER;
  pair_config.commName = "pair";
  CHECK_NCCL(ncclCommSplit(world, 0, rank, &pair, &pair_config));

  float *send = nullptr, *recv = nullptr;
  CHECK_CUDA(cudaMalloc(&send, kCount * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&recv, kCount * sizeof(float)));
  CHECK_CUDA(cudaMemset(send, 0, kCount * sizeof(float)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  const int peer = 1 - rank;
  for (int i = 0; i < 20; ++i) {
    nvtxRangePushA("nccl all-reduce");
    CHECK_NCCL(ncclAllReduce(send, recv, kCount, ncclFloat, ncclSum, world, stream));
    nvtxRangePop();
    if (i % 4 == 3) {
      nvtxRangePushA("nccl exchange");
      CHECK_NCCL(ncclGroupStart());
      CHECK_NCCL(ncclSend(send, kExchange, ncclFloat, peer, pair, stream));
      CHECK_NCCL(ncclRecv(recv, kExchange, ncclFloat, peer, pair, stream));
      CHECK_NCCL(ncclGroupEnd());
      nvtxRangePop();
    }
  }
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_NCCL(ncclCommDestroy(pair));
  CHECK_NCCL(ncclCommDestroy(world));
  CHECK_CUDA(cudaFree(send));
  CHECK_CUDA(cudaFree(recv));
  return 0;
}

// GPUs, counted in a child so that this process, which forks the ranks, never
// initializes CUDA.
int count_gpus() {
  int out[2];
  if (pipe(out) != 0) return 0;
  const pid_t child = fork();
  if (child == 0) {
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) n = 0;
    _exit(write(out[1], &n, sizeof n) == static_cast<ssize_t>(sizeof n) ? 0 : 1);
  }
  close(out[1]);
  int n = 0;
  if (read(out[0], &n, sizeof n) != static_cast<ssize_t>(sizeof n)) n = 0;
  close(out[0]);
  waitpid(child, nullptr, 0);
  return n;
}

} // namespace

int main(int argc, char **argv) {
  const int exit_code = argc > 1 ? std::atoi(argv[1]) : 0;
  const int gpus = count_gpus();
  if (gpus < 1) {
    std::fprintf(stderr, "nccl_ranks_sample: no GPU\n");
    return 1;
  }
  int id_pipe[2];
  if (pipe(id_pipe) != 0) return 1;
  pid_t ranks[kRanks];
  for (int rank = 0; rank < kRanks; ++rank) {
    ranks[rank] = fork();
    if (ranks[rank] == 0) _exit(run_rank(rank, gpus, id_pipe));
  }
  bool ok = true;
  for (const pid_t rank : ranks) {
    int status = 0;
    waitpid(rank, &status, 0);
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      std::fprintf(stderr, "nccl_ranks_sample: a rank ended with status %d\n", status);
      ok = false;
    }
  }
  return ok ? exit_code : 1;
}
