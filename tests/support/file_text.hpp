// A file's whole contents as bytes, "" when it cannot be read: what tests
// compare reports, exports and logs with.
#pragma once

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

namespace prof::testing {

inline std::string file_text(const std::filesystem::path &path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace prof::testing
