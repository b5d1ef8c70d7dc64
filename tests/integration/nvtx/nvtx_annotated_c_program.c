/* A C program annotated with NVTX v3 only: a domain range with a payload
 * around a pushed range, and a mark, as C code calls them. */
#include <nvtx3/nvToolsExt.h>

#include <unistd.h>

int main(void) {
  nvtxDomainHandle_t io = nvtxDomainCreateA("io");
  nvtxEventAttributes_t attributes = {0};
  attributes.version = NVTX_VERSION;
  attributes.size = NVTX_EVENT_ATTRIB_STRUCT_SIZE;
  attributes.messageType = NVTX_MESSAGE_TYPE_ASCII;
  attributes.message.ascii = "load";
  attributes.payloadType = NVTX_PAYLOAD_TYPE_INT64;
  attributes.payload.llValue = -5;
  nvtxDomainRangePushEx(io, &attributes);
  nvtxRangePushA("read file");
  usleep(1000);
  nvtxRangePop();
  nvtxMarkA("loaded");
  nvtxDomainRangePop(io);
  nvtxDomainDestroy(io);
  return 0;
}
