// A whole file, read-only, as bytes: mapped when it can be, read otherwise.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace prof::report {

class MappedFile {
public:
  MappedFile() = default;
  ~MappedFile();
  MappedFile(const MappedFile &) = delete;
  MappedFile &operator=(const MappedFile &) = delete;

  /// Opens `path`; returns 0 or the errno that stopped it.
  int open(const std::string &path);
  void close();
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  /// Drops the mapped pages around [offset, offset + size) from the process's
  /// memory; touched again, they read back from the page cache. Lets a
  /// reader stream a report much larger than its memory. Safe while other
  /// threads read the same bytes; nothing happens for a file read into memory.
  void release(uint64_t offset, uint64_t size) const;

private:
  const uint8_t *data_ = nullptr;
  size_t size_ = 0;
  void *mapping_ = nullptr;
  std::vector<uint8_t> copy_; // when the file cannot be mapped (pipes, /proc)
};

} // namespace prof::report
