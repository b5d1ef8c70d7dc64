#include "capture.hpp"

#include <iterator>

namespace prof::cpu_perf {

namespace {
template <typename T> void move_to_end(std::vector<T> &to, std::vector<T> &from) {
  if (to.empty()) {
    to = std::move(from);
    return;
  }
  to.insert(to.end(), std::make_move_iterator(from.begin()), std::make_move_iterator(from.end()));
}
} // namespace

void Capture::append(Capture &&later) {
  move_to_end(samples, later.samples);
  move_to_end(states, later.states);
  move_to_end(counters, later.counters);
  lost_records += later.lost_records;
  lost_samples += later.lost_samples;
  bad_records += later.bad_records;
}

} // namespace prof::cpu_perf
