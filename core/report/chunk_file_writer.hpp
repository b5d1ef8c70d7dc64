// Append-only output of whole chunks to a POSIX file descriptor. Small chunks
// are staged in memory and leave with the next large one (or at flush()), so
// the file sees few, large writes and chunks always land in call order.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

struct iovec;

namespace prof::report {

class ChunkFileWriter {
public:
  ChunkFileWriter() = default;
  ~ChunkFileWriter(); ///< writes what is staged (errors ignored) and closes
  ChunkFileWriter(const ChunkFileWriter &) = delete;
  ChunkFileWriter &operator=(const ChunkFileWriter &) = delete;

  /// Creates `path`; an existing file is refused unless `force_overwrite`.
  /// Throws ReportError with a one-line message naming the path.
  void open(const std::string &path, bool force_overwrite);
  bool is_open() const { return fd_ >= 0; }
  const std::string &path() const { return path_; }

  /// Appends one chunk whose payload is the concatenation of `pieces`.
  void write_chunk(uint16_t type, uint16_t flags, std::span<const std::span<const uint8_t>> pieces);
  /// Writes everything staged.
  void flush();
  /// Flushes and closes; the writer may then open another file.
  void close();

  /// Bytes appended so far, staged ones included.
  uint64_t bytes_written() const { return bytes_written_; }

private:
  void write_fully(iovec *iov, int count);
  [[noreturn]] void fail_write(int error) const;

  int fd_ = -1;
  std::string path_;
  std::vector<uint8_t> staged_;
  uint64_t bytes_written_ = 0;
};

} // namespace prof::report
