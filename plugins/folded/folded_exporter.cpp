#include "folded_exporter.hpp"

#include <prof/declared_options.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <sys/stat.h>
#include <unistd.h>

namespace prof::folded {

bool FoldedExporter::begin() {
  const DeclaredOptions declared(host_, kOptions);
  path_ = std::string(declared.text("path"));
  if (path_.empty()) {
    host_.log(PROF_LOG_ERROR, "folded: option 'path' is required, e.g. --plugin \"folded "
                              "path=out.folded\"");
    return false;
  }
  overwrite_ = declared.flag("overwrite");
  thread_frame_ = declared.flag("thread-frame");
  struct stat st {};
  if (!overwrite_ && stat(path_.c_str(), &st) == 0) {
    host_.log(PROF_LOG_ERROR, "folded: " + path_ +
                                  " already exists; set overwrite=true to "
                                  "replace it");
    return false;
  }
  return true;
}

bool FoldedExporter::consume(const prof_event *events, size_t count) {
  for (size_t i = 0; i < count; ++i)
    if (events[i].type == PROF_EVENT_SAMPLE)
      stacks_.add(events[i].track, static_cast<prof_stack_id>(events[i].id));
  return true;
}

bool FoldedExporter::end() {
  const std::string temp = path_ + ".tmp." + std::to_string(getpid());
  FILE *out = std::fopen(temp.c_str(), "w");
  if (out == nullptr) {
    host_.log(PROF_LOG_ERROR, "folded: cannot write " + temp + ": " + std::strerror(errno));
    return false;
  }
  const auto lines = stacks_.render(host_, thread_frame_);
  for (const std::string &line : lines)
    std::fprintf(out, "%s\n", line.c_str());
  const bool written = std::ferror(out) == 0;
  if (std::fclose(out) != 0 || !written) {
    host_.log(PROF_LOG_ERROR, "folded: cannot write " + temp + ": " + std::strerror(errno));
    std::remove(temp.c_str());
    return false;
  }
  if (std::rename(temp.c_str(), path_.c_str()) != 0) {
    host_.log(PROF_LOG_ERROR,
              "folded: cannot rename " + temp + " to " + path_ + ": " + std::strerror(errno));
    std::remove(temp.c_str());
    return false;
  }
  host_.print("folded: " + std::to_string(stacks_.samples()) + " samples in " +
              std::to_string(lines.size()) + " stacks written to " + path_);
  return true;
}

} // namespace prof::folded
