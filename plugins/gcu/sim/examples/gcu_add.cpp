// gcu-add: adds two float vectors on device 0 and checks the result.
//   gcu-add [--size N] [--iterations N] [--timings] [--quiet]
// --timings prints, per iteration, how long the kernel's bodies ran (first
// SIP start to last SIP end, CLOCK_MONOTONIC), for comparing with profiles.
// Exit 0 when every element is right, 1 on a mismatch, 2 on bad usage or a
// runtime error.
#include "gcusim/gcu_runtime.h"

#include <atomic>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

struct AddArgs {
  const float *a;
  const float *b;
  float *sum;
  size_t count;
  std::atomic<uint64_t> first_start_ns{UINT64_MAX};
  std::atomic<uint64_t> last_end_ns{0};
};

uint64_t monotonic_ns() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
}

/// Each SIP adds one contiguous share of the elements and notes when it ran.
void elementwise_add(void *raw, unsigned sip, unsigned sip_count) {
  AddArgs &args = *static_cast<AddArgs *>(raw);
  uint64_t start = monotonic_ns();
  size_t begin = args.count * sip / sip_count;
  size_t end = args.count * (sip + 1) / sip_count;
  for (size_t i = begin; i < end; ++i)
    args.sum[i] = args.a[i] + args.b[i];
  uint64_t finish = monotonic_ns();
  uint64_t seen = args.first_start_ns.load();
  while (start < seen && !args.first_start_ns.compare_exchange_weak(seen, start)) {
  }
  seen = args.last_end_ns.load();
  while (finish > seen && !args.last_end_ns.compare_exchange_weak(seen, finish)) {
  }
}

bool check(gcuError_t error, const char *what) {
  if (error == gcuSuccess) return true;
  std::fprintf(stderr, "gcu-add: %s: %s\n", what, gcuGetErrorString(error));
  return false;
}

bool parse_count(const char *text, size_t &out) {
  char *end = nullptr;
  unsigned long long value = std::strtoull(text, &end, 10);
  if (end == text || *end != '\0' || value == 0) return false;
  out = value;
  return true;
}

} // namespace

int main(int argc, char **argv) {
  size_t size = size_t{1} << 20;
  size_t iterations = 1;
  bool quiet = false, timings = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--quiet") == 0) {
      quiet = true;
    } else if (std::strcmp(argv[i], "--timings") == 0) {
      timings = true;
    } else if (std::strcmp(argv[i], "--size") == 0 && i + 1 < argc &&
               parse_count(argv[i + 1], size)) {
      ++i;
    } else if (std::strcmp(argv[i], "--iterations") == 0 && i + 1 < argc &&
               parse_count(argv[i + 1], iterations)) {
      ++i;
    } else {
      std::fprintf(stderr, "usage: gcu-add [--size N] [--iterations N] [--timings] [--quiet]\n");
      return 2;
    }
  }

  std::vector<float> a(size), b(size), sum(size);
  for (size_t i = 0; i < size; ++i) {
    a[i] = static_cast<float>(i % 1000) * 0.5f;
    b[i] = static_cast<float>(i % 7) - 3.0f;
  }
  const size_t bytes = size * sizeof(float);
  float *device_a = nullptr, *device_b = nullptr, *device_sum = nullptr;
  if (!check(gcuSetDevice(0), "gcuSetDevice") ||
      !check(gcuMalloc(reinterpret_cast<void **>(&device_a), bytes), "gcuMalloc") ||
      !check(gcuMalloc(reinterpret_cast<void **>(&device_b), bytes), "gcuMalloc") ||
      !check(gcuMalloc(reinterpret_cast<void **>(&device_sum), bytes), "gcuMalloc"))
    return 2;

  AddArgs args{device_a, device_b, device_sum, size};
  size_t mismatches = 0;
  for (size_t iteration = 0; iteration < iterations; ++iteration) {
    args.first_start_ns = UINT64_MAX; // the previous launch has finished: D2H waited for it
    args.last_end_ns = 0;
    if (!check(gcuMemcpyH2D(device_a, a.data(), bytes), "gcuMemcpyH2D") ||
        !check(gcuMemcpyH2D(device_b, b.data(), bytes), "gcuMemcpyH2D") ||
        !check(gcuLaunchKernel("elementwise_add_dtu", elementwise_add, &args, nullptr),
               "gcuLaunchKernel") ||
        !check(gcuMemcpyD2H(sum.data(), device_sum, bytes), "gcuMemcpyD2H"))
      return 2;
    if (timings)
      std::printf("kernel elementwise_add_dtu %llu ns\n",
                  static_cast<unsigned long long>(args.last_end_ns - args.first_start_ns));
    for (size_t i = 0; i < size; ++i)
      if (sum[i] != a[i] + b[i]) ++mismatches;
  }
  gcuFree(device_a);
  gcuFree(device_b);
  gcuFree(device_sum);

  if (!quiet)
    std::printf("gcu-add: %zu elements x %zu iterations: %s (%zu mismatches)\n", size, iterations,
                mismatches == 0 ? "ok" : "FAILED", mismatches);
  return mismatches == 0 ? 0 : 1;
}
