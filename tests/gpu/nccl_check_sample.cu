// The NCCL case of tools/gpu-check: a communicator of one GPU (device 0)
// running 20 all-reduces of 1 Mi floats (4 MiB each) on one stream, then a
// broadcast of 256 Ki floats from root 0. Exits 0, or 1 with a message.
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>

#define CHECK_CUDA(call)                                                                         \
  do {                                                                                           \
    cudaError_t e = (call);                                                                      \
    if (e != cudaSuccess) {                                                                      \
      std::fprintf(stderr, "%s: %s\n", #call, cudaGetErrorString(e));                           \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)
#define CHECK_NCCL(call)                                                                         \
  do {                                                                                           \
    ncclResult_t r = (call);                                                                     \
    if (r != ncclSuccess) {                                                                      \
      std::fprintf(stderr, "%s: %s\n", #call, ncclGetErrorString(r));                           \
      return 1;                                                                                  \
    }                                                                                            \
  } while (0)

int main() {
  constexpr size_t kCount = size_t{1} << 20;
  int device = 0;
  CHECK_CUDA(cudaSetDevice(device));
  ncclComm_t comm;
  CHECK_NCCL(ncclCommInitAll(&comm, 1, &device));
  float *send = nullptr, *recv = nullptr;
  CHECK_CUDA(cudaMalloc(&send, kCount * sizeof(float)));
  CHECK_CUDA(cudaMalloc(&recv, kCount * sizeof(float)));
  CHECK_CUDA(cudaMemset(send, 0, kCount * sizeof(float)));
  cudaStream_t stream;
  CHECK_CUDA(cudaStreamCreate(&stream));
  for (int i = 0; i < 20; ++i)
    CHECK_NCCL(ncclAllReduce(send, recv, kCount, ncclFloat, ncclSum, comm, stream));
  CHECK_NCCL(ncclBroadcast(send, recv, kCount / 4, ncclFloat, 0, comm, stream));
  CHECK_CUDA(cudaStreamSynchronize(stream));
  CHECK_NCCL(ncclCommDestroy(comm));
  CHECK_CUDA(cudaFree(send));
  CHECK_CUDA(cudaFree(recv));
  return 0;
}
