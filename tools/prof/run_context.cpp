#include "tools/prof/run_context.hpp"

#include <cstdio>

namespace prof::tool {

void print_error(const std::string &message) {
  const bool prefixed = message.rfind("prof: ", 0) == 0;
  std::fprintf(stderr, "%s%s\n", prefixed ? "" : "prof: ", message.c_str());
}

std::string malformed_chunk_warning(const std::string &path, uint64_t offset) {
  return "report '" + path + "': chunk at offset " + std::to_string(offset) +
         " is corrupted (malformed events payload); its events are left out";
}

} // namespace prof::tool
