// A fresh folder under the test temp dir, removed with its files at the end:
// what the report, stats and exporter tests write their output into. An
// end-to-end test's folder can be kept when the test failed (or when
// PROF_E2E_KEEP is set), and its path is printed, to look at what prof wrote.
#pragma once

#include <string>
#include <vector>

namespace prof::testing {

class ScratchDir {
public:
  enum class Keep { never, on_failure };
  /// A folder named PREFIX-XXXXXX.
  explicit ScratchDir(const std::string &prefix = "prof-test", Keep keep = Keep::never);
  ~ScratchDir();
  ScratchDir(const ScratchDir &) = delete;
  ScratchDir &operator=(const ScratchDir &) = delete;
  const std::string &path() const { return path_; }
  std::string file(const std::string &name) const { return path_ + "/" + name; }
  /// The names of the entries in the folder, sorted.
  std::vector<std::string> file_names() const;

private:
  std::string path_;
  Keep keep_;
};

} // namespace prof::testing
