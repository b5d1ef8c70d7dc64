// A fresh folder under the test temp dir, removed with its files at the end:
// what the report and stats tests write their reports into.
#pragma once

#include <string>

namespace prof::testing {

class ScratchDir {
public:
  ScratchDir();
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  std::string file(const std::string &name) const { return path_ + "/" + name; }

private:
  std::string path_;
};

} // namespace prof::testing
