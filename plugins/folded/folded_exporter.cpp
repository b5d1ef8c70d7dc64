#include "folded_exporter.hpp"

#include <prof/declared_options.hpp>

namespace prof::folded {

bool FoldedExporter::begin() {
  thread_frame_ = DeclaredOptions(host_, kOptions).flag("thread-frame");
  // Open now so a taken or unwritable path fails before the capture, not after.
  return file_.open(kOptions);
}

bool FoldedExporter::consume(const prof_event *events, size_t count) {
  if (file_.failed()) return false;
  for (size_t i = 0; i < count; ++i)
    if (events[i].type == PROF_EVENT_SAMPLE)
      stacks_.add(events[i].track, static_cast<prof_stack_id>(events[i].id));
  return true;
}

bool FoldedExporter::end() {
  if (file_.failed()) return false;
  const auto lines = stacks_.render(host_, thread_frame_);
  std::string text;
  for (const std::string &line : lines) {
    text += line;
    text += '\n';
    if (!file_.write_if_full(text)) return false;
  }
  if (!file_.write(text) || !file_.commit()) return false;
  host_.print("folded: " + std::to_string(stacks_.samples()) + " samples in " +
              std::to_string(lines.size()) + " stacks written to " + file_.final_path());
  return true;
}

} // namespace prof::folded
