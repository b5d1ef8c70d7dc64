#include "core/capture/args_sweeper.hpp"

#include <algorithm>

namespace prof::core {

void ArgsSweeper::add(const KeptEvents *keeper) { keepers_.push_back(keeper); }

void ArgsSweeper::remove(const KeptEvents *keeper) {
  keepers_.erase(std::remove(keepers_.begin(), keepers_.end(), keeper), keepers_.end());
}

void ArgsSweeper::maybe_sweep() {
  if (table_.live() < std::max(kFewestToSweep, 2 * kept_at_last_sweep_)) return;
  std::vector<bool> referenced(table_.size());
  for (const KeptEvents *keeper : keepers_)
    keeper->for_each_kept([&referenced](const prof_event &e) {
      if ((e.type == PROF_EVENT_SLICE || e.type == PROF_EVENT_INSTANT) && e.args != 0 &&
          e.args < referenced.size())
        referenced[e.args] = true;
    });
  freed_ += table_.release_unreferenced(referenced);
  kept_at_last_sweep_ = table_.live();
  ++sweeps_;
}

} // namespace prof::core
