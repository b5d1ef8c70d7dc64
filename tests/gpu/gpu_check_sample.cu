// A CUDA program of known shape for tools/gpu-check: every number below is
// checked in its prof report. Phases are NVTX ranges in domain "gpu-check".
#include <cuda_runtime.h>
#include <nvtx3/nvToolsExt.h>

#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                                \
  do {                                                                                             \
    const cudaError_t e = (call);                                                                  \
    if (e != cudaSuccess) {                                                                        \
      std::fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(e));   \
      std::exit(1);                                                                                \
    }                                                                                              \
  } while (0)

__global__ void scale(float *x, float factor, int n) {
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] *= factor;
}

__global__ void add(const float *a, const float *b, float *c, int n) {
  const int i = (blockIdx.y * gridDim.x + blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

__global__ void tiny(float *x) { x[threadIdx.x] += 1.0f; }

namespace {

constexpr size_t kMiB = 1 << 20;
constexpr size_t kBytes = 16 * kMiB; // each of a, b, c
constexpr int kCount = static_cast<int>(kBytes / sizeof(float));

nvtxDomainHandle_t domain;

void push(const char *name) {
  nvtxEventAttributes_t a{};
  a.version = NVTX_VERSION;
  a.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  a.messageType = NVTX_MESSAGE_TYPE_ASCII;
  a.message.ascii = name;
  nvtxDomainRangePushEx(domain, &a);
}
void pop() { nvtxDomainRangePop(domain); }

} // namespace

int main() {
  domain = nvtxDomainCreateA("gpu-check");
  float *a, *b, *c, *scratch, *kept, *host;

  push("setup"); // device memory peaks at 16+16+16+32 = 80 MiB, pinned 16 MiB besides
  CHECK(cudaMalloc(&a, kBytes));
  CHECK(cudaMalloc(&b, kBytes));
  CHECK(cudaMalloc(&c, kBytes));
  CHECK(cudaMalloc(&scratch, 32 * kMiB));
  CHECK(cudaMallocHost(&host, kBytes));
  CHECK(cudaFree(scratch));
  CHECK(cudaMalloc(&kept, 8 * kMiB)); // never freed: the leak the report names
  for (int i = 0; i < kCount; ++i)
    host[i] = 1.0f;
  cudaStream_t first, second;
  CHECK(cudaStreamCreateWithFlags(&first, cudaStreamNonBlocking));
  CHECK(cudaStreamCreateWithFlags(&second, cudaStreamNonBlocking));
  cudaEvent_t scaled;
  CHECK(cudaEventCreateWithFlags(&scaled, cudaEventDisableTiming));
  pop();

  push("copies"); // 2 x HtoD 16 MiB, 1 memset 16 MiB
  CHECK(cudaMemcpyAsync(a, host, kBytes, cudaMemcpyHostToDevice, first));
  CHECK(cudaMemcpyAsync(b, host, kBytes, cudaMemcpyHostToDevice, first));
  CHECK(cudaMemsetAsync(c, 0, kBytes, first));
  pop();

  push("kernels"); // 10 x scale<<<256,128>>> on first; 5 x add<<<(64,2),256>>> on second after them
  for (int i = 0; i < 10; ++i)
    scale<<<256, 128, 0, first>>>(a, 1.01f, 256 * 128);
  CHECK(cudaEventRecord(scaled, first));
  CHECK(cudaStreamWaitEvent(second, scaled, 0));
  for (int i = 0; i < 5; ++i)
    add<<<dim3(64, 2, 1), dim3(256, 1, 1), 0, second>>>(a, b, c, 64 * 2 * 256);
  CHECK(cudaGetLastError());
  CHECK(cudaStreamSynchronize(second));
  pop();

  push("graph"); // a graph of 3 x tiny<<<1,32>>>, launched 4 times
  cudaGraph_t graph;
  cudaGraphExec_t exec;
  CHECK(cudaStreamBeginCapture(first, cudaStreamCaptureModeGlobal));
  for (int i = 0; i < 3; ++i)
    tiny<<<1, 32, 0, first>>>(c);
  CHECK(cudaStreamEndCapture(first, &graph));
  CHECK(cudaGraphInstantiate(&exec, graph, 0));
  for (int i = 0; i < 4; ++i)
    CHECK(cudaGraphLaunch(exec, first));
  CHECK(cudaStreamSynchronize(first));
  pop();

  push("readback"); // 1 x DtoH 16 MiB
  CHECK(cudaMemcpy(host, c, kBytes, cudaMemcpyDeviceToHost));
  pop();

  CHECK(cudaGraphExecDestroy(exec));
  CHECK(cudaGraphDestroy(graph));
  CHECK(cudaFree(a));
  CHECK(cudaFree(b));
  CHECK(cudaFree(c));
  std::printf("gpu-check sample: c[0] = %.3f\n", host[0]);
  CHECK(cudaFreeHost(host));
  return 0;
}
