#include "core/report/mapped_file.hpp"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace prof::report {

MappedFile::~MappedFile() { close(); }

int MappedFile::open(const std::string &path) {
  close();
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno;
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    const int error = errno;
    ::close(fd);
    return error;
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return EISDIR;
  }
  if (S_ISREG(st.st_mode) && st.st_size > 0) {
    void *m = ::mmap(nullptr, static_cast<size_t>(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
    if (m != MAP_FAILED) {
      ::close(fd);
      mapping_ = m;
      data_ = static_cast<const uint8_t *>(m);
      size_ = static_cast<size_t>(st.st_size);
      return 0;
    }
  }
  uint8_t buffer[64 * 1024];
  for (;;) {
    const ssize_t n = ::read(fd, buffer, sizeof buffer);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      copy_.clear();
      return error;
    }
    copy_.insert(copy_.end(), buffer, buffer + n);
  }
  ::close(fd);
  data_ = copy_.data();
  size_ = copy_.size();
  return 0;
}

void MappedFile::release(uint64_t offset, uint64_t size) const {
  if (mapping_ == nullptr || offset >= size_) return;
  static const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t begin = offset / page * page;
  const uint64_t end = std::min<uint64_t>(size_, offset + size);
  // Read-only and never written, so the pages are clean: dropping them loses nothing.
  ::madvise(const_cast<uint8_t *>(data_) + begin, static_cast<size_t>(end - begin), MADV_DONTNEED);
}

void MappedFile::close() {
  if (mapping_ != nullptr) ::munmap(mapping_, size_);
  mapping_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  copy_.clear();
}

} // namespace prof::report
