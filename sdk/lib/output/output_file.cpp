#include <prof/output/output_file.hpp>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <system_error>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace prof::output {

namespace fs = std::filesystem;

std::string resolve_output_path(std::string_view path, int pid, std::string_view extension) {
  std::string result(path);
  std::error_code ec;
  const bool folder = (!result.empty() && result.back() == '/') || fs::is_directory(result, ec);
  if (!folder) return result;
  if (result.back() != '/') result += '/';
  return result + "prof-" + std::to_string(pid) + std::string(extension);
}

OutputFile::~OutputFile() { discard(); }

bool OutputFile::fail(const std::string &what, int error_number) {
  error_ = owner_.empty() ? what : owner_ + ": " + what;
  if (error_number != 0) error_ += ": " + std::string(std::strerror(error_number));
  return false;
}

bool OutputFile::open(const std::string &final_path, bool overwrite) {
  discard();
  final_path_ = final_path;
  written_ = 0;
  std::error_code ec;
  const fs::path target(final_path);
  if (fs::exists(fs::symlink_status(target, ec)) && !overwrite)
    return fail("'" + final_path + "' already exists", 0);
  if (fs::is_directory(target, ec)) return fail("'" + final_path + "' is a folder", 0);
  // A folder named with a trailing '/' is created, like topsprof does for
  // --export-visual-profiler.
  const fs::path folder = target.parent_path();
  if (!folder.empty() && !fs::exists(folder, ec)) {
    fs::create_directories(folder, ec);
    if (ec) return fail("cannot create folder '" + folder.string() + "'", ec.value());
  }
  // Same folder as the final name, so rename() is atomic.
  for (int attempt = 0; attempt < 100; ++attempt) {
    temp_path_ = final_path + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(attempt);
    fd_ = ::open(temp_path_.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd_ >= 0) return true;
    if (errno != EEXIST) break;
  }
  const int saved = errno;
  const std::string temp = temp_path_;
  temp_path_.clear();
  return fail("cannot create '" + temp + "'", saved);
}

bool OutputFile::write(const void *data, size_t size) {
  if (fd_ < 0) return fail("trace file is not open", 0);
  const auto *bytes = static_cast<const uint8_t *>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, bytes, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      return fail("cannot write '" + temp_path_ + "'", errno);
    }
    bytes += n;
    size -= static_cast<size_t>(n);
    written_ += static_cast<uint64_t>(n);
  }
  return true;
}

bool OutputFile::commit() {
  if (fd_ < 0) return fail("trace file is not open", 0);
  // No fsync: the rename makes the file whole or absent for every reader and
  // against prof's own death, as the report (which is not synced either) is;
  // an export can be made again from the report. Waiting for the disk cost
  // `prof export` up to a third of its time on a slow one.
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0) return fail("cannot close '" + temp_path_ + "'", errno);
  if (::rename(temp_path_.c_str(), final_path_.c_str()) != 0)
    return fail("cannot rename '" + temp_path_ + "' to '" + final_path_ + "'", errno);
  temp_path_.clear();
  return true;
}

void OutputFile::discard() {
  if (fd_ >= 0) {
    ::close(fd_);
    fd_ = -1;
  }
  if (!temp_path_.empty()) {
    ::unlink(temp_path_.c_str());
    temp_path_.clear();
  }
}

} // namespace prof::output
