#include "counter_file.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

namespace prof::nic {

FileHandle &FileHandle::operator=(FileHandle &&other) noexcept {
  if (this != &other) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = other.release();
  }
  return *this;
}

FileHandle::~FileHandle() {
  if (fd_ >= 0) ::close(fd_);
}

FileHandle FileHandle::open_read(const std::string &path) {
  return FileHandle(::open(path.c_str(), O_RDONLY | O_CLOEXEC));
}

bool pread_all(int fd, std::string &text) {
  if (text.size() < 4096) text.resize(4096);
  size_t used = 0;
  for (;;) {
    if (used == text.size()) text.resize(text.size() * 2);
    const ssize_t got =
        ::pread(fd, text.data() + used, text.size() - used, static_cast<off_t>(used));
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return false;
    if (got == 0) break;
    used += static_cast<size_t>(got);
  }
  text.resize(used);
  return true;
}

std::optional<std::string> read_text_file(const std::string &path) {
  const FileHandle file = FileHandle::open_read(path);
  std::string text;
  if (!file.valid() || !pread_all(file.fd(), text)) return std::nullopt;
  return text;
}

std::vector<std::string> list_folder(const std::string &path) {
  std::vector<std::string> names;
  DIR *dir = opendir(path.c_str());
  if (dir == nullptr) return names;
  while (const dirent *entry = readdir(dir)) {
    const std::string_view name = entry->d_name;
    if (name != "." && name != "..") names.emplace_back(name);
  }
  closedir(dir);
  std::sort(names.begin(), names.end());
  return names;
}

std::optional<uint64_t> parse_counter(std::string_view text) {
  while (!text.empty() && (text.front() == ' ' || text.front() == '\t'))
    text.remove_prefix(1);
  uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end == text.data()) return std::nullopt;
  return value;
}

bool CounterFileSet::open(Counter counter, const std::string &path) {
  FileHandle file = FileHandle::open_read(path);
  if (!file.valid()) return false;
  files_[counter] = std::move(file);
  return true;
}

bool CounterFileSet::empty() const {
  return std::none_of(files_.begin(), files_.end(), [](const FileHandle &f) { return f.valid(); });
}

bool CounterFileSet::read(CounterSet &out) const {
  char buffer[32];
  for (size_t i = 0; i < kCounterCount; ++i) {
    out[i].reset();
    if (!files_[i].valid()) continue;
    ssize_t got;
    do {
      got = ::pread(files_[i].fd(), buffer, sizeof buffer, 0);
    } while (got < 0 && errno == EINTR);
    if (got <= 0) return false;
    out[i] = parse_counter(std::string_view(buffer, static_cast<size_t>(got)));
  }
  return true;
}

} // namespace prof::nic
