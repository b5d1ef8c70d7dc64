// topsprof's "Sip busy efficiency (Per-op Mode)" metric: for each operator,
// each SIP's busy cycles without and with waits and their ratio. Operators
// are the kernel slices (PROF_CATEGORY_KERNEL) of the gcu source; the
// counters are sip-pmc's, tied to their operator by correlation id.
#pragma once

#include <prof/plugin.hpp>

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::gcu {

class SipEfficiency {
public:
  explicit SipEfficiency(const ExportHost &host) : host_(host) {}

  void add(const prof_event &event);
  /// The table's lines; a single explanatory line when nothing was collected.
  std::vector<std::string> table();

private:
  struct Operator {
    uint64_t ts = 0;
    uint64_t duration = 0;
    prof_string_id name = 0;
  };
  struct SipValues {
    double without_wait = 0;
    double with_wait = 0;
  };
  enum class CounterKind { Other, WithoutWait, WithWait };
  struct CounterTrack {
    CounterKind kind = CounterKind::Other;
    std::string sip; ///< "sip:D:C:S"
  };
  const CounterTrack &counter_track(prof_track_id track);
  std::string sip_label(const prof_track_desc &counter) const;

  const ExportHost &host_;
  std::unordered_map<uint64_t, Operator> operators_;
  std::unordered_map<uint64_t, std::map<std::string, SipValues>> values_;
  std::unordered_map<prof_track_id, CounterTrack> counter_tracks_;
};

} // namespace prof::gcu
