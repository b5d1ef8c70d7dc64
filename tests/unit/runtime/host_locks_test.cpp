// The host code that runs inside the application takes no lock a tracing
// plugin can interpose. This binary interposes pthread_mutex_lock and
// sched_yield itself, as osrt does, and counts the calls made while the
// shared catalog and the ring pools work, contended or not. (With
// std::mutex there, osrt timed a contended catalog lock and recorded the
// wait through the catalog: the thread waited for itself.)
#include "core/runtime/ring_pool.hpp"
#include "core/runtime/shm_catalog_writer.hpp"
#include "core/runtime/shm_region.hpp"

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <pthread.h>
#include <sched.h>

#include <atomic>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace {
thread_local bool t_counting = false;
std::atomic<int> g_interposed_calls{0};
} // namespace

extern "C" __attribute__((visibility("default"))) int pthread_mutex_lock(pthread_mutex_t *m) {
  if (t_counting) g_interposed_calls.fetch_add(1);
  static auto real =
      reinterpret_cast<int (*)(pthread_mutex_t *)>(dlsym(RTLD_NEXT, "pthread_mutex_lock"));
  return real(m);
}

extern "C" __attribute__((visibility("default"))) int sched_yield() {
  if (t_counting) g_interposed_calls.fetch_add(1);
  static auto real = reinterpret_cast<int (*)()>(dlsym(RTLD_NEXT, "sched_yield"));
  return real();
}

namespace prof::core {
namespace {

ShmRegionConfig small_region() {
  ShmRegionConfig config;
  config.ring_count = 4;
  config.ring_bytes = 1 << 16;
  config.watermark_bytes = 1 << 15;
  config.catalog_bytes = 1 << 20;
  return config;
}

TEST(HostLocks, TheCatalogAndTheRingPoolsTakeNoInterposableLock) {
  // The interposer is in place: a plain std::mutex is counted.
  {
    std::mutex probe;
    t_counting = true;
    probe.lock();
    t_counting = false;
    probe.unlock();
    ASSERT_EQ(g_interposed_calls.exchange(0), 1) << "the test's interposer is not in front";
  }
  const std::string name = new_shm_name();
  ShmRegion region = ShmRegion::create(name, small_region(), "");
  ShmCatalogWriter catalog(region);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      t_counting = true;
      ShmHeader &h = *region.header();
      {
        RingPool pool(region.rings(), h.ring_stride, h.slots, h.ring_count, h.ring_capacity,
                      h.watermark_events, &h.no_ring_drops, false);
      }
      const std::string thread_name = "thread " + std::to_string(t);
      prof_track_desc desc{sizeof(prof_track_desc),
                           PROF_TRACK_THREAD,
                           0,
                           thread_name.c_str(),
                           1,
                           100 + t,
                           -1,
                           nullptr,
                           0};
      catalog.declare_track(desc);
      const prof_clock_id clock = catalog.register_clock("clock " + std::to_string(t), 1e9);
      for (uint32_t i = 0; i < 2000; ++i) {
        const prof_string_id s = catalog.intern_string(std::to_string(t * 100000 + i));
        const prof_string_id frames[2] = {s, s};
        catalog.intern_stack(frames);
        catalog.add_calibration(clock, i, i);
      }
      t_counting = false;
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(g_interposed_calls.load(), 0);
  region.unlink();
}

} // namespace
} // namespace prof::core
