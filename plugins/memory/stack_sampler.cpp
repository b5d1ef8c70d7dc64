#include "stack_sampler.hpp"

#include <prof/python/frame_walk.hpp>
#include <prof/stacks/return_addresses.hpp>
#include <prof/tsc_clock.hpp>

#include <atomic>
#include <cmath>

namespace prof::memory {
namespace {

#define PROF_TLS thread_local __attribute__((tls_model("initial-exec")))
PROF_TLS int64_t t_until_sample = 0; ///< bytes before the next sample
PROF_TLS uint64_t t_random = 0;      ///< xorshift state; 0 before the thread's first draw

constinit RawStackTable g_stacks;
std::atomic<uint64_t> g_period{0};
std::atomic<const python::PythonRuntime *> g_python{nullptr};

uint64_t next_random() noexcept {
  uint64_t x = t_random;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  t_random = x;
  return x * 0x2545F4914F6CDD1Dull;
}

// An exponentially distributed distance of mean `period`, at least 1.
int64_t draw_distance(uint64_t period) noexcept {
  const double uniform = (static_cast<double>(next_random() >> 11) + 1.0) * 0x1.0p-53; // (0, 1]
  const double distance = -std::log(uniform) * static_cast<double>(period);
  return distance < 1.0        ? 1
         : distance > 0x1.0p62 ? INT64_C(1) << 62
                               : static_cast<int64_t>(distance);
}

uint32_t take_stack(uintptr_t site) noexcept {
  // The hooks' own frames come first: the stack starts at the allocator's caller.
  constexpr int kOwnFrames = 8;
  uintptr_t addresses[kStackNativeFrames + kOwnFrames];
  const int count = stacks::capture_return_addresses(addresses, kStackNativeFrames + kOwnFrames);
  int first = 0;
  while (first < count && addresses[first] != site)
    ++first;
  if (first == count) first = count < 4 ? count : 4; // a tail call: skip the hooks only
  RawStack stack;
  for (int i = first; i < count && stack.native_count < kStackNativeFrames; ++i)
    stack.native[stack.native_count++] = addresses[i];
  if (const python::PythonRuntime *python = g_python.load(std::memory_order_acquire)) {
    bool truncated = false;
    stack.python_count = static_cast<uint16_t>(
        python::walk_python_frames(*python, stack.python, kStackPythonFrames, &truncated));
  }
  return g_stacks.intern(stack);
}

} // namespace

RawStackTable &sampled_stacks() { return g_stacks; }

void start_stack_sampling(uint64_t period_bytes, const python::PythonRuntime *python) {
  uintptr_t warm_up[4]; // the unwinder loads and caches on first use: here, not in malloc
  stacks::capture_return_addresses(warm_up, 4);
  g_python.store(python, std::memory_order_release);
  g_period.store(period_bytes, std::memory_order_release);
}

void stop_stack_sampling() { g_period.store(0, std::memory_order_release); }

uint64_t stack_sampling_period() { return g_period.load(std::memory_order_acquire); }

uint32_t sample_stack(uint64_t size, uintptr_t site) noexcept {
  const uint64_t period = g_period.load(std::memory_order_relaxed);
  if (period == 0 || size == 0) return 0;
  if (t_random == 0) [[unlikely]] { // the thread's first allocation: its first distance
    t_random = (reinterpret_cast<uintptr_t>(&t_random) ^ TscClock::now_ns()) | 1;
    t_until_sample = draw_distance(period);
  }
  t_until_sample -= static_cast<int64_t>(size > INT64_MAX ? INT64_MAX : size);
  if (t_until_sample > 0) [[likely]]
    return 0;
  t_until_sample = draw_distance(period); // from the block's end
  return take_stack(site);
}

double sampled_weight(uint64_t size, uint64_t period) noexcept {
  if (period == 0 || size == 0) return static_cast<double>(size);
  const double p = -std::expm1(-static_cast<double>(size) / static_cast<double>(period));
  return static_cast<double>(size) / p;
}

double sampled_variance(uint64_t size, uint64_t period) noexcept {
  if (period == 0 || size == 0) return 0;
  const double p = -std::expm1(-static_cast<double>(size) / static_cast<double>(period));
  const double s = static_cast<double>(size);
  return s * s * (1 - p) / (p * p);
}

} // namespace prof::memory
