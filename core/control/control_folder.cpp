#include "core/control/control_folder.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

namespace prof::control {

std::filesystem::path control_folder_of(const std::string &runtime,
                                        const std::filesystem::path &root) {
  if (runtime.starts_with('/')) {
    std::error_code ec;
    if (std::filesystem::is_directory(root / runtime.substr(1), ec))
      return std::filesystem::path(runtime) / "prof";
  }
  return std::filesystem::path("/tmp") / ("prof-" + std::to_string(getuid()));
}

std::filesystem::path control_folder() {
  const char *runtime = std::getenv("XDG_RUNTIME_DIR");
  return control_folder_of(runtime ? runtime : "", "/");
}

void ensure_private_folder(const std::filesystem::path &folder) {
  const std::string name = folder.string();
  if (mkdir(name.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot create session folder " + name + ": " + std::strerror(errno));
  struct stat st {};
  if (lstat(name.c_str(), &st) != 0)
    throw std::runtime_error("cannot inspect session folder " + name + ": " + std::strerror(errno));
  if (!S_ISDIR(st.st_mode))
    throw std::runtime_error("session folder " + name +
                             " is not a directory (a link or a file "
                             "someone else put there?): remove it");
  if (st.st_uid != getuid())
    throw std::runtime_error("session folder " + name + " belongs to uid " +
                             std::to_string(st.st_uid) + ", not to you: remove it");
  if ((st.st_mode & 077) != 0)
    throw std::runtime_error("session folder " + name + " can be entered by others (mode " +
                             std::to_string((st.st_mode >> 6) & 7) +
                             std::to_string((st.st_mode >> 3) & 7) +
                             std::to_string(st.st_mode & 7) + "): expected 700");
}

} // namespace prof::control
