// Counter files kept open and re-read with pread(): one sysfs attribute
// holding one decimal number, and the set of them that makes one device.
#ifndef PROF_PLUGINS_NIC_COUNTER_FILE_HPP
#define PROF_PLUGINS_NIC_COUNTER_FILE_HPP

#include "nic_metrics.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace prof::nic {

/// An open file descriptor, closed on destruction.
class FileHandle {
public:
  FileHandle() = default;
  explicit FileHandle(int fd) : fd_(fd) {}
  FileHandle(FileHandle &&other) noexcept : fd_(other.release()) {}
  FileHandle &operator=(FileHandle &&other) noexcept;
  FileHandle(const FileHandle &) = delete;
  FileHandle &operator=(const FileHandle &) = delete;
  ~FileHandle();

  /// Opens `path` read-only; an invalid handle (errno set) on failure.
  static FileHandle open_read(const std::string &path);
  bool valid() const { return fd_ >= 0; }
  int fd() const { return fd_; }
  int release() {
    const int fd = fd_;
    fd_ = -1;
    return fd;
  }

private:
  int fd_ = -1;
};

/// Reads the whole file from offset 0 into `text` (reusing its storage); false on error.
bool pread_all(int fd, std::string &text);
/// Whole text of a small file, nullopt when it cannot be read.
std::optional<std::string> read_text_file(const std::string &path);
/// Names in a folder (without "." and ".."), sorted; empty when it cannot be listed.
std::vector<std::string> list_folder(const std::string &path);
/// The leading decimal number of `text` (sysfs counters end in '\n').
std::optional<uint64_t> parse_counter(std::string_view text);

/// The open counter files of one device and what its data counters count in.
class CounterFileSet {
public:
  CounterFileSet(std::string name, uint32_t data_unit_bytes)
      : name_(std::move(name)), data_unit_bytes_(data_unit_bytes) {}

  /// Opens `path` as `counter`; false (and the counter stays absent) when it cannot.
  bool open(Counter counter, const std::string &path);
  bool empty() const;
  /// Reads every open counter into `out`; false when a file no longer reads,
  /// which means the device went away.
  bool read(CounterSet &out) const;

  const std::string &name() const { return name_; } ///< track name
  uint32_t data_unit_bytes() const { return data_unit_bytes_; }

private:
  std::string name_;
  uint32_t data_unit_bytes_;
  std::array<FileHandle, kCounterCount> files_;
};

} // namespace prof::nic

#endif
