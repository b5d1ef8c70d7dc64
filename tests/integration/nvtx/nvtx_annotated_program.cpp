// A program annotated with NVTX v3 only: three threads with nested ranges
// (one names its OS thread), a range started on the main thread and ended on
// a worker, a mark, and a domain with a registered string, a named category
// and a payload. It prints each worker's tid as "worker N tid T".
#include <nvtx3/nvToolsExt.h>

#include <unistd.h>

#include <cstdio>
#include <string>
#include <thread>
#include <vector>

namespace {

void worker(int index, nvtxRangeId_t handed_over) {
  if (index == 2) nvtxNameOsThreadA(static_cast<uint32_t>(gettid()), "named-worker");
  std::printf("worker %d tid %d\n", index, static_cast<int>(gettid()));
  const std::string outer = "outer " + std::to_string(index);
  const std::string inner = "inner " + std::to_string(index);
  nvtxRangePushA(outer.c_str());
  nvtxRangePushA(inner.c_str());
  usleep(2000);
  nvtxRangePop();
  if (index == 1) nvtxRangeEnd(handed_over);
  nvtxRangePop();
}

} // namespace

int main() {
  nvtxMarkA("begin");
  const nvtxRangeId_t handed_over = nvtxRangeStartA("handed over");

  nvtxDomainHandle_t train = nvtxDomainCreateA("train");
  nvtxDomainNameCategoryA(train, 3, "compute");
  nvtxEventAttributes_t step{};
  step.version = NVTX_VERSION;
  step.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  step.category = 3;
  step.colorType = NVTX_COLOR_ARGB;
  step.color = 0xFF0000FF;
  step.payloadType = NVTX_PAYLOAD_TYPE_UNSIGNED_INT64;
  step.payload.ullValue = 7;
  step.messageType = NVTX_MESSAGE_TYPE_REGISTERED;
  step.message.registered = nvtxDomainRegisterStringA(train, "step");
  nvtxDomainRangePushEx(train, &step);

  std::vector<std::thread> threads;
  for (int i = 0; i < 3; ++i)
    threads.emplace_back(worker, i, handed_over);
  for (std::thread &t : threads)
    t.join();

  nvtxDomainRangePop(train);
  std::fflush(stdout);
  return 0;
}
