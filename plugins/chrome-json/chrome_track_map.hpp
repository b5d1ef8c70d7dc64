// ChromeTrackMap: where each prof track lands in the Chrome trace (pid, tid)
// and the "M" metadata records that name it, written when a track is first
// used.
//
//   process track        pid = its pid, tid 0; process_name = track name
//   thread track         its pid/tid (pid of the parent process when unset);
//                        thread_name = track name
//   device (top level)   synthetic pid kDevicePidBase + index, named by the
//                        track ("GCU N" when it has no name)
//   other top-level      synthetic pid kOtherPidBase + track id (network,
//                        custom, ...), named by the track
//   nested non-thread    synthetic tid kSyntheticTidBase + track id in its
//   (cluster, engine..)  ancestor's pid, named by the path below that
//                        ancestor ("cluster 1 / SIP 3")
//   counter              the pid of its parent (nearest process/device), or
//                        the synthetic "counters" process at top level
//   track 0 / unknown    the synthetic process "prof" (kOrphanPid)
// Sort indexes keep host processes first, in order of appearance, then
// devices by index, then other tracks in declaration order.
#ifndef PROF_PLUGINS_CHROME_JSON_CHROME_TRACK_MAP_HPP
#define PROF_PLUGINS_CHROME_JSON_CHROME_TRACK_MAP_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <unordered_map>
#include <utility>

namespace prof::chrome_json {

/// Where a track's events go.
struct ChromePlace {
  int64_t pid = 0;
  int64_t tid = 0;
  bool counter = false;   ///< a counter track: only "C" events belong here
  bool synthetic = false; ///< a synthetic thread (engine, ...): path names children
  std::string label;      ///< thread path of a synthetic thread; counter name
};

class ChromeTrackMap {
public:
  static constexpr int64_t kOrphanPid = 999999;
  static constexpr int64_t kCountersPid = 999998;
  static constexpr int64_t kDevicePidBase = 1000000;
  static constexpr int64_t kOtherPidBase = 2000000;
  static constexpr int64_t kSyntheticTidBase = 1000000000;

  /// `emit` receives each metadata record (one JSON object) to write.
  ChromeTrackMap(ExportHost host, std::function<void(const std::string &)> emit)
      : host_(host), emit_(std::move(emit)) {}

  /// The place of `track`, writing its metadata records the first time.
  const ChromePlace &use(prof_track_id track);
  /// Names again the processes and threads whose tracks the host names
  /// differently now (a process that exec'd after its first events): the
  /// last name record of a pid or tid is the one viewers show.
  void refresh_names();

private:
  const ChromePlace &use(prof_track_id track, int depth);
  ChromePlace resolve(prof_track_id track, int depth);
  void name_process(int64_t pid, std::string_view name, int64_t sort_index);
  void name_thread(int64_t pid, int64_t tid, std::string_view name, int64_t sort_index);
  void metadata(int64_t pid, int64_t tid, const char *what, const char *key, std::string_view text,
                int64_t number);

  ExportHost host_;
  std::function<void(const std::string &)> emit_;
  std::unordered_map<prof_track_id, ChromePlace> places_;
  /// Process and thread tracks named, with the name written.
  std::unordered_map<prof_track_id, std::string> names_written_;
  std::set<int64_t> named_processes_;
  std::set<std::pair<int64_t, int64_t>> named_threads_;
  int64_t process_order_ = 0;
  int64_t thread_order_ = 0;
};

} // namespace prof::chrome_json

#endif
