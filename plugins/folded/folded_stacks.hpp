// Folded call stacks ("root;caller;leaf count"), the input of flame-graph
// tools: counted per (track, stack) while events stream, rendered at the end.
#ifndef PROF_PLUGINS_FOLDED_FOLDED_STACKS_HPP
#define PROF_PLUGINS_FOLDED_FOLDED_STACKS_HPP

#include <prof/plugin.hpp>

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace prof::folded {

class FoldedStacks {
public:
  /// Counts one sample of `stack` on `track`.
  void add(prof_track_id track, prof_stack_id stack) { ++counts_[{track, stack}]; }
  uint64_t samples() const { return samples_total(); }
  /// The lines, sorted, frames root first; with `thread_frame` each line
  /// starts with the name of the sample's track (the thread).
  std::vector<std::string> render(const ExportHost &host, bool thread_frame) const;

private:
  uint64_t samples_total() const;
  std::map<std::pair<prof_track_id, prof_stack_id>, uint64_t> counts_;
};

/// A frame made safe for the format: ';' and line breaks replaced.
std::string clean_frame(std::string_view frame);

} // namespace prof::folded

#endif
