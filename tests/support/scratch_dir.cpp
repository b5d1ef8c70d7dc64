#include "scratch_dir.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <stdexcept>

namespace prof::testing {

ScratchDir::ScratchDir(const std::string &prefix, Keep keep) : keep_(keep) {
  std::string pattern = ::testing::TempDir() + prefix + "-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

ScratchDir::~ScratchDir() {
  if (keep_ == Keep::on_failure &&
      (::testing::Test::HasFailure() || std::getenv("PROF_E2E_KEEP") != nullptr)) {
    std::fprintf(stderr, "test folder kept: %s\n", path_.c_str());
    return;
  }
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

std::vector<std::string> ScratchDir::file_names() const {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(path_))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace prof::testing
