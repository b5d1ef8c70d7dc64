#include "folded_stacks.hpp"

namespace prof::folded {

std::string clean_frame(std::string_view frame) {
  std::string out(frame);
  for (char &c : out) {
    if (c == ';') c = ':';
    else if (c == '\n' || c == '\r') c = ' ';
  }
  if (out.empty()) out = "[unknown]";
  return out;
}

uint64_t FoldedStacks::samples_total() const {
  uint64_t n = 0;
  for (const auto &[key, count] : counts_) n += count;
  return n;
}

std::vector<std::string> FoldedStacks::render(const ExportHost &host, bool thread_frame) const {
  std::map<std::string, uint64_t> lines;
  const prof_export_api *api = host.api();
  for (const auto &[key, count] : counts_) {
    const auto [track, stack] = key;
    std::string line;
    if (thread_frame) {
      const prof_track_desc *desc = host.track(track);
      line = clean_frame(desc != nullptr && desc->name != nullptr ? desc->name : "");
    }
    uint32_t frames = 0;
    const prof_string_id *ids = api->stack(host.context(), stack, &frames);
    for (uint32_t i = frames; i-- > 0;) { // stored leaf first
      if (!line.empty()) line += ';';
      line += clean_frame(host.string(ids[i]));
    }
    if (line.empty()) line = "[unknown]";
    lines[line] += count;
  }
  std::vector<std::string> out;
  out.reserve(lines.size());
  for (const auto &[line, count] : lines) out.push_back(line + ' ' + std::to_string(count));
  return out;
}

} // namespace prof::folded
