// Helpers of the gcusim tests: the driver, items by name, a capture that
// collects what it receives, and child processes with their own environment.
#ifndef PROF_TESTS_GCUSIM_TEST_SUPPORT_HPP
#define PROF_TESTS_GCUSIM_TEST_SUPPORT_HPP

#include "gcusim/gcu_runtime.h"
#include <prof/gcu_driver.h>

#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

extern "C" const prof_gcu_driver *prof_gcu_driver_entry(void);

namespace gcusim_test {

inline const prof_gcu_driver &driver() { return *prof_gcu_driver_entry(); }
inline const prof_gcu_topology &topology() { return *driver().topology(); }

/// Index of the engine named `name`; fails the test when there is none.
uint32_t engine_index(const char *name);
/// Index of an activity (or event) of an engine, by name.
uint32_t item_index(uint32_t engine, const char *name);
/// Every instance of one activity of an engine on `device`.
std::vector<prof_gcu_item> all_instances(uint32_t device, const char *engine, const char *activity);
/// Every activity and event of every engine instance of `device`.
std::vector<prof_gcu_item> everything(uint32_t device);
/// Both selections, one after the other.
inline std::vector<prof_gcu_item> operator+(std::vector<prof_gcu_item> a,
                                            const std::vector<prof_gcu_item> &b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}
/// Every function of the RUNTIME domain.
std::vector<prof_gcu_api_item> all_api_functions();
/// Name of a record's activity or event, e.g. "SIP Busy".
std::string item_name(const prof_gcu_record &record);
std::string engine_name(const prof_gcu_record &record);

/// A capture that keeps everything it receives.
class Collector {
public:
  ~Collector();
  /// A config delivering here (device buffers of 1 MB, host rings of 4 MB).
  prof_gcu_capture_config config(const std::vector<prof_gcu_item> &items,
                                 const std::vector<prof_gcu_api_item> &apis = {});
  /// Subscribes with `config`; fails the test on an error.
  void subscribe(const prof_gcu_capture_config &config);
  void subscribe(const std::vector<prof_gcu_item> &items,
                 const std::vector<prof_gcu_api_item> &apis = {}) {
    subscribe(config(items, apis));
  }
  void flush() { driver().flush(handle_); }
  void unsubscribe();
  uint32_t handle() const { return handle_; }
  prof_gcu_buffer_stats stats(uint32_t device) const;

  std::vector<prof_gcu_record> records();
  std::vector<prof_gcu_api_record> apis();
  /// Records of one activity or event name.
  std::vector<prof_gcu_record> records_named(const std::string &item);
  /// Callbacks that ran after unsubscribe() returned (must stay 0).
  int late_callbacks() const { return late_callbacks_.load(); }
  /// Threads on_api ran on.
  std::vector<std::thread::id> api_threads();

private:
  static void on_records(void *user, const prof_gcu_record *records, size_t count);
  static void on_api(void *user, const prof_gcu_api_record *record);

  std::vector<prof_gcu_item> items_;
  std::vector<prof_gcu_api_item> apis_selected_;
  uint32_t handle_ = 0;
  bool subscribed_ = false;
  std::atomic<bool> closed_{false};
  std::atomic<int> late_callbacks_{0};
  std::mutex mutex_;
  std::vector<prof_gcu_record> records_;
  std::vector<prof_gcu_api_record> api_records_;
  std::vector<std::thread::id> api_threads_;
};

/// Device ticks as seconds.
inline double ticks_to_seconds(uint32_t device, uint64_t ticks) {
  return static_cast<double>(ticks) / driver().clock_frequency(device);
}

/// Result of a child process.
struct ChildResult {
  int exit_code = -1;
  std::string output; // stdout and stderr together
};
/// Runs `program` with `args`, the GCUSIM_* variables of this process removed
/// and `env` ("NAME=value") added.
ChildResult run_program(const std::string &program, const std::vector<std::string> &args,
                        const std::vector<std::string> &env = {});
/// Reruns this test binary for the one test `test` ("Suite.Name") with `env`.
ChildResult run_test_in_child(const std::string &test, const std::vector<std::string> &env);
/// True in such a child; tests meant only for it skip elsewhere.
bool in_child();

/// Kernel bodies.
void sleep_kernel(void *ms, unsigned sip, unsigned sip_count); // sleeps *(int *)ms on every SIP
void empty_kernel(void *, unsigned, unsigned);

} // namespace gcusim_test

#endif
