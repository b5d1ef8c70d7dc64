// What osrt adds to one call, beside the bare call in the same run. Run
// with LD_PRELOAD=libprof-osrt.so (run_bench_osrt_calls.sh does): the
// program starts an osrt instance on a host that discards its events, then
// times each call through the C library's own definition (bare) and through
// the preloaded interposer, both called through a pointer as a program's
// PLT calls them.
//   BM_Write/MODE:      a one-byte write() to /dev/null
//   BM_MutexPair/MODE:  an uncontended pthread_mutex_lock/unlock pair (unlock
//                       is never interposed)
// MODE: bare, traced, or pass_through (the instance suspended).
//   BM_TwoTscReads:     the floor of a timed call: its two clock reads.
#include "discard_host.hpp"

#include <prof/plugin.h>

#include <benchmark/benchmark.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <utility>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace {

using WriteFn = ssize_t (*)(int, const void *, size_t);
using LockFn = int (*)(pthread_mutex_t *);

enum class Mode { kBare, kTraced, kPassThrough };

struct Osrt {
  const prof_source_vtable *vtable = nullptr;
  void *instance = nullptr;
};

Osrt g_osrt;
void *g_libc = nullptr;

/// Where `name` resolves for the given mode: the C library's definition, or
/// the first one in lookup order (the preloaded interposer).
template <class Fn> Fn function_for(Mode mode, const char *name) {
  void *symbol = mode == Mode::kBare ? dlsym(g_libc, name) : dlsym(RTLD_DEFAULT, name);
  return reinterpret_cast<Fn>(symbol);
}

/// Puts the instance in the state `mode` measures; false when it cannot.
bool enter(benchmark::State &state, Mode mode) {
  if (mode != Mode::kBare && g_osrt.instance == nullptr) {
    state.SkipWithError("run with LD_PRELOAD=.../libprof-osrt.so");
    return false;
  }
  if (g_osrt.instance != nullptr) {
    auto switch_to = mode == Mode::kPassThrough ? g_osrt.vtable->suspend : g_osrt.vtable->resume;
    switch_to(g_osrt.instance);
  }
  return true;
}

void BM_Write(benchmark::State &state, Mode mode) {
  if (!enter(state, mode)) return;
  const WriteFn write_fn = function_for<WriteFn>(mode, "write");
  static const int fd = open("/dev/null", O_WRONLY);
  for (auto _ : state)
    if (write_fn(fd, "x", 1) != 1) std::abort();
}

void BM_MutexPair(benchmark::State &state, Mode mode) {
  if (!enter(state, mode)) return;
  const LockFn lock = function_for<LockFn>(mode, "pthread_mutex_lock");
  const LockFn unlock = function_for<LockFn>(Mode::kBare, "pthread_mutex_unlock");
  static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  for (auto _ : state) {
    lock(&mutex);
    unlock(&mutex);
  }
}

#if defined(__x86_64__) || defined(__i386__)
void BM_TwoTscReads(benchmark::State &state) {
  for (auto _ : state) {
    benchmark::DoNotOptimize(__rdtsc());
    benchmark::DoNotOptimize(__rdtsc());
  }
}
BENCHMARK(BM_TwoTscReads);
#endif

void register_modes() {
  const std::pair<const char *, Mode> modes[] = {
      {"bare", Mode::kBare}, {"traced", Mode::kTraced}, {"pass_through", Mode::kPassThrough}};
  for (const auto &[name, mode] : modes) {
    benchmark::RegisterBenchmark((std::string("BM_Write/") + name).c_str(), BM_Write, mode);
    benchmark::RegisterBenchmark((std::string("BM_MutexPair/") + name).c_str(), BM_MutexPair, mode);
  }
}

/// Starts an instance when the plugin is preloaded.
bool start_osrt() {
  auto entry =
      reinterpret_cast<prof_plugin_entry_fn>(dlsym(RTLD_DEFAULT, PROF_PLUGIN_ENTRY_SYMBOL));
  if (entry == nullptr) return true; // bare only
  g_osrt.vtable = entry()->source;
  g_osrt.instance = g_osrt.vtable->create(&prof::bench::kDiscardHost, nullptr);
  return g_osrt.instance != nullptr && g_osrt.vtable->configure(g_osrt.instance) == PROF_OK &&
         g_osrt.vtable->start(g_osrt.instance) == PROF_OK;
}

} // namespace

int main(int argc, char **argv) {
  g_libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);
  if (g_libc == nullptr || !start_osrt()) {
    std::fprintf(stderr, "bench_osrt_calls: cannot find the C library or start osrt\n");
    return 1;
  }
  register_modes();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 2;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  if (g_osrt.instance != nullptr) {
    g_osrt.vtable->stop(g_osrt.instance);
    g_osrt.vtable->destroy(g_osrt.instance);
  }
  return 0;
}
