/* gcusim runtime API: what applications call to use a simulated Enflame GCU.
 *
 * Devices, memory, streams, events and kernels, modelled on the host:
 * device memory is host memory, copies move real bytes at a modelled
 * bandwidth, and kernels are host functions that really run on the six SIP
 * threads of one cluster. The profiler sees all of it through the driver
 * interface in <prof/gcu_driver.h>, exported by the same library.
 *
 * Every call below except gcuGetErrorString is traced: the driver's "RUNTIME"
 * API domain lists them by these names, in this order. The runtime
 * initializes itself on first use; gcuInit is optional. */
#ifndef GCUSIM_GCU_RUNTIME_H
#define GCUSIM_GCU_RUNTIME_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Result of every runtime call.
typedef enum gcuError_t {
  gcuSuccess = 0,
  gcuErrorInvalidValue = 1,     ///< a bad argument: null, zero size, unknown pointer
  gcuErrorInvalidDevice = 2,    ///< a device number out of range
  gcuErrorMemoryAllocation = 3, ///< device memory exhausted
  gcuErrorNotReady = 4,         ///< an event's work has not finished yet
  gcuErrorInvalidHandle = 5     ///< an unknown or destroyed stream or event
} gcuError_t;

/// A queue of device work that runs in order. NULL is the current device's default stream.
typedef struct gcuStream_st *gcuStream_t;
/// A marker recorded into a stream; completes when the stream reaches it.
typedef struct gcuEvent_st *gcuEvent_t;

/// A kernel body: runs once on each SIP of the cluster executing the launch,
/// with `sip` in [0, sip_count). Each SIP should do its own share of the work.
typedef void (*gcuKernelFn)(void *args, unsigned sip, unsigned sip_count);

/// Initializes the runtime; `flags` must be 0. Optional: every call initializes on first use.
gcuError_t gcuInit(unsigned int flags);

/// Number of devices (GCUSIM_DEVICES, default 2).
gcuError_t gcuGetDeviceCount(int *count);

/// Makes `device` current for the calling thread.
gcuError_t gcuSetDevice(int device);

/// The calling thread's current device (0 until gcuSetDevice).
gcuError_t gcuGetDevice(int *device);

/// Allocates `bytes` of device memory on the current device (64-byte aligned).
gcuError_t gcuMalloc(void **ptr, size_t bytes);

/// Frees memory from gcuMalloc after the owning device's queued work has finished.
gcuError_t gcuFree(void *ptr);

/// Copies host memory to device memory; returns when the copy has finished.
gcuError_t gcuMemcpyH2D(void *dst, const void *src, size_t bytes);

/// Copies device memory to host memory; returns when the copy has finished.
gcuError_t gcuMemcpyD2H(void *dst, const void *src, size_t bytes);

/// Copies device memory to device memory; returns when the copy has finished.
gcuError_t gcuMemcpyD2D(void *dst, const void *src, size_t bytes);

/// Queues a host-to-device copy on `stream`. `src` must stay valid until it has run.
gcuError_t gcuMemcpyH2DAsync(void *dst, const void *src, size_t bytes, gcuStream_t stream);

/// Queues a device-to-host copy on `stream`. `dst` must stay valid until it has run.
gcuError_t gcuMemcpyD2HAsync(void *dst, const void *src, size_t bytes, gcuStream_t stream);

/// Queues a device-to-device copy on `stream`.
gcuError_t gcuMemcpyD2DAsync(void *dst, const void *src, size_t bytes, gcuStream_t stream);

/// Sets `bytes` of device memory to the byte `value`; returns when done.
gcuError_t gcuMemset(void *dst, int value, size_t bytes);

/// Queues a memset of device memory on `stream`.
gcuError_t gcuMemsetAsync(void *dst, int value, size_t bytes, gcuStream_t stream);

/// Queues kernel `body` on `stream`; `name` names it in profiles. `args` is passed
/// as is and must stay valid until the kernel has run.
gcuError_t gcuLaunchKernel(const char *name, gcuKernelFn body, void *args, gcuStream_t stream);

/// Creates a stream on the current device.
gcuError_t gcuStreamCreate(gcuStream_t *stream);

/// Waits for the stream's work, then destroys it.
gcuError_t gcuStreamDestroy(gcuStream_t stream);

/// Waits until all work queued on `stream` has finished.
gcuError_t gcuStreamSynchronize(gcuStream_t stream);

/// Makes work queued on `stream` after this call wait for `event`'s latest record.
gcuError_t gcuStreamWaitEvent(gcuStream_t stream, gcuEvent_t event);

/// Creates an event.
gcuError_t gcuEventCreate(gcuEvent_t *event);

/// Destroys an event; queued records and waits on it still complete.
gcuError_t gcuEventDestroy(gcuEvent_t event);

/// Queues a record of `event` on `stream`: it completes when the stream reaches it.
gcuError_t gcuEventRecord(gcuEvent_t event, gcuStream_t stream);

/// Waits until the event's latest record has completed.
gcuError_t gcuEventSynchronize(gcuEvent_t event);

/// Milliseconds between two completed events; gcuErrorNotReady if either is pending.
gcuError_t gcuEventElapsedTime(float *ms, gcuEvent_t start, gcuEvent_t end);

/// Waits until all work queued on the current device has finished.
gcuError_t gcuDeviceSynchronize(void);

/// Marks the start of the region of interest (see gcusimProfilerActive).
gcuError_t gcuProfilerStart(void);

/// Marks the end of the region of interest.
gcuError_t gcuProfilerStop(void);

/// Allocates `bytes` of host memory the devices can reach ("pinned"), 64-byte
/// aligned. Its memory records go to the current device; it counts against
/// no device's memory, and gcuFree refuses it.
gcuError_t gcuMallocHost(void **ptr, size_t bytes);

/// Frees memory from gcuMallocHost.
gcuError_t gcuFreeHost(void *ptr);

/// Queues a collective library's kernel: as gcuLaunchKernel, but its records
/// are communication (a collective running on the device, as a CCL's
/// all-reduce kernel is), not compute. The body does the exchange.
gcuError_t gcuLaunchCollectiveKernel(const char *name, gcuKernelFn body, void *args,
                                     gcuStream_t stream);

/// Text naming an error code; never NULL. Not traced.
const char *gcuGetErrorString(gcuError_t error);

/// 1 between gcuProfilerStart and gcuProfilerStop, else 0. Not traced.
int gcusimProfilerActive(void);

#ifdef __cplusplus
}
#endif

#endif
