#include "core/report/chunk_file_writer.hpp"

#include "core/report/chunk.hpp"
#include "core/report/report_error.hpp"

#include <cerrno>
#include <cstring>
#include <exception>
#include <fcntl.h>
#include <sys/uio.h>
#include <unistd.h>

namespace prof::report {
namespace {

// A chunk at least this big goes straight to the file instead of being staged.
constexpr size_t kDirectWriteSize = 64 * 1024;
constexpr size_t kStagedFlushSize = 1024 * 1024;
constexpr size_t kMaxPieces = 16;

} // namespace

ChunkFileWriter::~ChunkFileWriter() {
  try {
    close();
  } catch (const ReportError &) {
    // Nothing to tell from a destructor; the reader will find the file cut.
  }
}

void ChunkFileWriter::open(const std::string &path, bool force_overwrite) {
  close();
  const int flags = O_WRONLY | O_CREAT | O_CLOEXEC | (force_overwrite ? O_TRUNC : O_EXCL);
  const int fd = ::open(path.c_str(), flags, 0644);
  if (fd < 0) {
    if (errno == EEXIST)
      throw ReportError("report '" + path + "' already exists (use --force-overwrite)");
    throw ReportError("cannot create report '" + path + "': " + std::strerror(errno));
  }
  fd_ = fd;
  path_ = path;
  staged_.clear();
  bytes_written_ = 0;
}

void ChunkFileWriter::write_chunk(uint16_t type, uint16_t flags,
                                  std::span<const std::span<const uint8_t>> pieces) {
  if (fd_ < 0) throw ReportError("cannot write report: no report is open");
  if (pieces.size() > kMaxPieces)
    throw ReportError("cannot write report '" + path_ + "': too many payload pieces");
  size_t length = 0;
  for (const auto &piece : pieces)
    length += piece.size();
  if (length > kMaxPayloadSize)
    throw ReportError("cannot write report '" + path_ + "': chunk too large");

  ChunkHeader h;
  h.type = type;
  h.flags = flags;
  h.length = static_cast<uint32_t>(length);
  h.crc = chunk_crc(type, flags, h.length, pieces);
  uint8_t header[kChunkHeaderSize];
  store_chunk_header(h, header);
  bytes_written_ += kChunkHeaderSize + length;

  if (length < kDirectWriteSize) {
    staged_.insert(staged_.end(), header, header + kChunkHeaderSize);
    for (const auto &piece : pieces)
      staged_.insert(staged_.end(), piece.begin(), piece.end());
    if (staged_.size() >= kStagedFlushSize) flush();
    return;
  }
  iovec iov[kMaxPieces + 2];
  int n = 0;
  if (!staged_.empty()) iov[n++] = {staged_.data(), staged_.size()};
  iov[n++] = {header, kChunkHeaderSize};
  for (const auto &piece : pieces)
    if (!piece.empty()) iov[n++] = {const_cast<uint8_t *>(piece.data()), piece.size()};
  write_fully(iov, n);
  staged_.clear();
}

void ChunkFileWriter::flush() {
  if (fd_ < 0 || staged_.empty()) return;
  iovec iov{staged_.data(), staged_.size()};
  write_fully(&iov, 1);
  staged_.clear();
}

void ChunkFileWriter::close() {
  if (fd_ < 0) return;
  std::exception_ptr failure;
  try {
    flush();
  } catch (const ReportError &) {
    failure = std::current_exception();
  }
  const int close_result = ::close(fd_);
  const int close_error = errno;
  fd_ = -1;
  staged_.clear();
  if (failure) std::rethrow_exception(failure);
  if (close_result != 0 && close_error != EINTR) fail_write(close_error);
}

void ChunkFileWriter::write_fully(iovec *iov, int count) {
  while (count > 0) {
    const ssize_t n = ::writev(fd_, iov, count);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail_write(errno);
    }
    auto done = static_cast<size_t>(n);
    while (count > 0 && done >= iov->iov_len) {
      done -= iov->iov_len;
      ++iov;
      --count;
    }
    if (count > 0) {
      iov->iov_base = static_cast<uint8_t *>(iov->iov_base) + done;
      iov->iov_len -= done;
    }
  }
}

void ChunkFileWriter::fail_write(int error) const {
  throw ReportError("cannot write report '" + path_ + "': " + std::strerror(error));
}

} // namespace prof::report
