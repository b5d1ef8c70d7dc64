#include "tools/prof/run_context.hpp"

#include <cstdio>
#include <filesystem>

namespace prof::tool {

void print_error(const std::string &message) {
  const bool prefixed = message.rfind("prof: ", 0) == 0;
  std::fprintf(stderr, "%s%s\n", prefixed ? "" : "prof: ", message.c_str());
}

bool output_path_allowed(const std::string &path, bool force, std::string *error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    *error = "output file '" + path + "' is a directory";
    return false;
  }
  if (fs::exists(path, ec) && !force) {
    *error = "output file '" + path + "' already exists (use --force-overwrite)";
    return false;
  }
  fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    *error = "cannot write '" + path + "': folder '" + folder.string() + "' does not exist";
    return false;
  }
  return true;
}

std::string malformed_chunk_warning(const std::string &path, uint64_t offset) {
  return "report '" + path + "': chunk at offset " + std::to_string(offset) +
         " is corrupted (malformed events payload); its events are left out";
}

} // namespace prof::tool
