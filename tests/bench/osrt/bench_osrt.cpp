// osrt overhead benchmark: 500k one-byte write()s to /dev/null and 2M
// uncontended mutex lock/unlock pairs, timed in-process. Modes:
//   bare    - run it as is (no interposers)
//   traced  - run with LD_PRELOAD=libprof-osrt.so: the program finds the
//             preloaded plugin's entry symbol, starts an instance with a host
//             that discards everything, and runs the same work
//   (a preloaded run without "traced" measures the pass-through cost)
// Prints "workload_ms=<ms>" (median of --repeat runs inside one process).
#include "discard_host.hpp"

#include <prof/plugin.h>

#include <dlfcn.h>
#include <fcntl.h>
#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

namespace {

double now_ms() {
  timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) * 1e3 + static_cast<double>(ts.tv_nsec) / 1e6;
}

double workload(int fd, int writes, int locks) {
  static pthread_mutex_t mutex = PTHREAD_MUTEX_INITIALIZER;
  const double begin = now_ms();
  for (int i = 0; i < writes; ++i)
    if (write(fd, "x", 1) != 1) std::abort();
  for (int i = 0; i < locks; ++i) {
    pthread_mutex_lock(&mutex);
    pthread_mutex_unlock(&mutex);
  }
  return now_ms() - begin;
}

} // namespace

int main(int argc, char **argv) {
  bool traced = false;
  int repeat = 5, writes = 500000, locks = 2000000;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "traced") == 0)
      traced = true;
    else if (std::strcmp(argv[i], "bare") == 0)
      traced = false;
    else if (std::strncmp(argv[i], "--repeat=", 9) == 0)
      repeat = std::atoi(argv[i] + 9);
    else if (std::strncmp(argv[i], "--writes=", 9) == 0)
      writes = std::atoi(argv[i] + 9);
    else if (std::strncmp(argv[i], "--locks=", 8) == 0)
      locks = std::atoi(argv[i] + 8);
  }
  const prof_source_vtable *vtable = nullptr;
  void *instance = nullptr;
  if (traced) {
    auto entry =
        reinterpret_cast<prof_plugin_entry_fn>(dlsym(RTLD_DEFAULT, PROF_PLUGIN_ENTRY_SYMBOL));
    if (entry == nullptr) {
      std::fprintf(stderr, "bench_osrt: traced needs LD_PRELOAD=.../libprof-osrt.so\n");
      return 2;
    }
    vtable = entry()->source;
    instance = vtable->create(&prof::bench::kDiscardHost, nullptr);
    if (instance == nullptr || vtable->configure(instance) != PROF_OK ||
        vtable->start(instance) != PROF_OK)
      return 1;
  }
  const int fd = open("/dev/null", O_WRONLY);
  std::vector<double> times;
  workload(fd, writes / 10, locks / 10); // warm-up
  for (int r = 0; r < repeat; ++r)
    times.push_back(workload(fd, writes, locks));
  std::sort(times.begin(), times.end());
  if (instance != nullptr) {
    vtable->stop(instance);
    vtable->destroy(instance);
  }
  std::printf("workload_ms=%.2f\n", times[times.size() / 2]);
  return 0;
}
