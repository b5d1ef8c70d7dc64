// A private folder under $TMPDIR for what checked exporters write, removed
// with everything in it when the check ends.
#pragma once

#include <filesystem>

namespace prof::plugin_check {

class ScratchFolder {
public:
  ScratchFolder(); ///< throws std::runtime_error when none can be made
  ~ScratchFolder();
  ScratchFolder(const ScratchFolder &) = delete;
  ScratchFolder &operator=(const ScratchFolder &) = delete;

  const std::filesystem::path &path() const { return path_; }

private:
  std::filesystem::path path_;
};

} // namespace prof::plugin_check
