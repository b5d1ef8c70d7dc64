// A CPU-bound program with a known call structure for the cpu-perf tests:
// main -> recurse_fib (recursive) -> busy_leaf, for the given seconds.
// Built with -O1 -fno-omit-frame-pointer -fno-inline so every frame stays.
#include <chrono>
#include <cstdlib>

extern "C" {
volatile unsigned long sink;

__attribute__((noinline)) unsigned long busy_leaf(unsigned long n) {
  unsigned long x = n;
  for (int i = 0; i < 2000; ++i) x = x * 2862933555777941757ul + 3037000493ul;
  sink = x;
  return x & 1;
}

__attribute__((noinline)) unsigned long recurse_fib(unsigned long n) {
  if (n < 2) return busy_leaf(n);
  return recurse_fib(n - 1) + recurse_fib(n - 2);
}
}

int main(int argc, char **argv) {
  const double seconds = argc > 1 ? std::atof(argv[1]) : 0.5;
  const auto end = std::chrono::steady_clock::now() +
                   std::chrono::microseconds(static_cast<long>(seconds * 1e6));
  unsigned long total = 0;
  while (std::chrono::steady_clock::now() < end) total += recurse_fib(10);
  return total == 0 ? 1 : 0;
}
