/* The application prof-plugin-check stands in for when it checks the gcu
 * and sip-pmc sources: each call allocates device memory, copies to it,
 * runs a kernel, copies back and frees, through gcusim's runtime. */
#include <gcusim/gcu_runtime.h>

#include <stddef.h>

typedef struct scale_args {
  float *data;
  size_t count;
} scale_args;

static void scale(void *args, unsigned sip, unsigned sip_count) {
  scale_args *a = args;
  for (size_t i = sip; i < a->count; i += sip_count)
    a->data[i] *= 2.0f;
}

__attribute__((visibility("default"))) void prof_check_workload(void) {
  enum { count = 4096 };
  static float host[count];
  void *device = NULL;
  if (gcuSetDevice(0) != 0 || gcuMalloc(&device, sizeof host) != 0) return;
  scale_args args = {device, count};
  gcuMemcpyH2D(device, host, sizeof host);
  gcuLaunchKernel("check_scale", scale, &args, NULL);
  gcuDeviceSynchronize();
  gcuMemcpyD2H(host, device, sizeof host);
  gcuFree(device);
}
