// A fresh folder under the test temp dir, removed with its files at the end:
// what the report, stats and exporter tests write their output into.
#pragma once

#include <string>
#include <vector>

namespace prof::testing {

class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  /// The names of the entries in the folder, sorted.
  std::vector<std::string> file_names() const;

private:
  std::string path_;
};

} // namespace prof::testing
