// Where a report's tracks land in a Kineto trace. Kineto has two kinds of
// rows: a process's threads (pid, tid) and a device's streams (pid: the
// device, tid: the stream). A track under a device goes to the device's
// row of the stream above it; a thread track to its process's pid and its
// tid; other tracks get a row of their own. Each process and thread is
// named by a metadata record ("ph": "M") written before its first event.
#ifndef PROF_PLUGINS_KINETO_KINETO_PLACES_HPP
#define PROF_PLUGINS_KINETO_KINETO_PLACES_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>

namespace prof::kineto {

/// An event's row.
struct KinetoPlace {
  bool device = false;      ///< a device's row: pid is the device, tid the stream
  bool counter = false;     ///< a counter track: Kineto's JSON has no counters
  int64_t pid = 0, tid = 0; ///< as written
  int32_t device_index = -1;
};

/// Pids a process without one (pid 0) gets, past any device index.
inline constexpr int64_t kSyntheticPid = 100000;
/// Tids a thread without one gets.
inline constexpr int64_t kSyntheticTid = 1000000;

class KinetoPlaces {
public:
  /// `emit` receives each metadata record, a JSON object.
  KinetoPlaces(ExportHost host, std::function<void(const std::string &)> emit);

  /// The row of `track`, its process's and thread's names emitted on first use.
  const KinetoPlace &use(prof_track_id track);
  /// The pid of the first process placed (a device's memory events go to
  /// it, as Kineto puts them on the host's thread); 0 before any.
  int64_t main_pid() const { return main_pid_; }

private:
  KinetoPlace resolve(prof_track_id track);
  void name_process(int64_t pid, const std::string &name);
  void name_thread(int64_t pid, int64_t tid, const std::string &name);

  ExportHost host_;
  std::function<void(const std::string &)> emit_;
  std::unordered_map<prof_track_id, KinetoPlace> places_;
  std::set<int64_t> named_processes_;
  std::set<std::pair<int64_t, int64_t>> named_threads_;
  int64_t main_pid_ = 0;
};

/// A process track's name without the " (rank N)" that prof import and
/// launchers add (prof import adds it again from distributedInfo).
std::string process_name_without_rank(std::string_view name);

} // namespace prof::kineto

#endif
