// OutputFile (prof::output, an SDK library): an exporter's output file,
// written under a temporary name in the target folder and renamed over the
// final name only when everything was written.
// A failed or abandoned export removes the temporary file, so nothing
// half-written is ever left under the final name.
#ifndef PROF_OUTPUT_OUTPUT_FILE_HPP
#define PROF_OUTPUT_OUTPUT_FILE_HPP

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace prof::output {

/// Final file name for a file exporter's `path` option: `path` itself, or
/// `<path>/prof-<pid><extension>` when `path` is an existing folder or ends
/// with '/'. `extension` is the exporter's (".json").
std::string resolve_output_path(std::string_view path, int pid, std::string_view extension);

class OutputFile {
public:
  /// `owner` starts every error message ("perfetto: ..."); "" for none.
  explicit OutputFile(std::string owner) : owner_(std::move(owner)) {}
  OutputFile(const OutputFile &) = delete;
  OutputFile &operator=(const OutputFile &) = delete;
  ~OutputFile(); ///< removes the temporary file unless commit() succeeded

  /// Creates the temporary file beside `final_path`. Refuses an existing
  /// `final_path` unless `overwrite`. On failure returns false and sets error().
  bool open(const std::string &final_path, bool overwrite);
  /// Appends `size` bytes; false (and error()) on a write failure.
  bool write(const void *data, size_t size);
  /// Closes the temporary file and renames it to the final name (no fsync:
  /// the rename is what makes the file whole or absent).
  bool commit();
  /// Closes and removes the temporary file (idempotent).
  void discard();

  const std::string &error() const { return error_; }
  const std::string &final_path() const { return final_path_; }
  const std::string &temporary_path() const { return temp_path_; }
  uint64_t bytes_written() const { return written_; }

private:
  bool fail(const std::string &what, int error_number);

  std::string owner_;
  int fd_ = -1;
  std::string final_path_;
  std::string temp_path_;
  std::string error_;
  uint64_t written_ = 0;
};

} // namespace prof::output

#endif
