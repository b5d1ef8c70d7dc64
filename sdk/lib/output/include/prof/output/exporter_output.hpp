// ExporterOutput (prof::output, an SDK library): what every file exporter
// does first and last with the file it writes. At begin(): the required
// `path` option, `overwrite`, a folder given as `path` receiving
// "prof-<pid><extension>" (pid: the session's target, else this process),
// and the temporary file created beside the final name. At end(): the file
// renamed into place. The first failure is logged once through the host,
// with the exporter's name in front, and removes the temporary file.
//
// The texts users read:
//   "NAME: option path is required"
//   "NAME: 'FILE' already exists" (without overwrite=true), and OutputFile's
//   other errors ("NAME: cannot create folder 'X': ...")
//   "NAME: wrote N events to 'FILE'" (log_written)
#ifndef PROF_OUTPUT_EXPORTER_OUTPUT_HPP
#define PROF_OUTPUT_EXPORTER_OUTPUT_HPP

#include <prof/output/output_file.hpp>
#include <prof/plugin.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace prof::output {

/// The `overwrite` row of a file exporter's option table, as every one
/// declares it (put it after the exporter's own `path` row).
inline constexpr prof_option_desc kOverwriteOption = {
    "overwrite",
    PROF_OPTION_BOOL,
    "false",
    0,
    -1,
    nullptr,
    "replace an existing output file instead of refusing it"};

/// The process a file exporter names its output after in a folder: the
/// session's target, else this process (an export of a report has none).
int output_pid(const prof_session_info &session);

/// A file exporter's `path` and `overwrite` options, read against its
/// option table (prof::DeclaredOptions).
struct OutputOptions {
  std::string path; ///< as given: a file, or a folder (existing or ending in '/')
  bool overwrite = false;

  /// The options, or nullopt after logging "OWNER: option path is required".
  static std::optional<OutputOptions>
  read(const ExportHost &host, std::span<const prof_option_desc> table, std::string_view owner);
};

class ExporterOutput {
public:
  /// `owner` starts every message ("kineto"); `extension` ends the name a
  /// folder receives (".pt.trace.json").
  ExporterOutput(ExportHost host, std::string owner, std::string extension);

  /// begin()'s first step: reads `path` and `overwrite` from `table` and
  /// creates the temporary file. False, the error logged, when there is no
  /// path, the file exists (without overwrite) or cannot be made.
  bool open(std::span<const prof_option_desc> table);
  /// Writes `text` and empties it; false (the error logged) on failure.
  bool write(std::string &text);
  /// Text built up as events arrive is written in blocks of about this size.
  static constexpr size_t kBlockBytes = size_t{1} << 20;
  /// write(text) once `text` holds a block; true while it holds less.
  bool write_if_full(std::string &text) { return text.size() < kBlockBytes || write(text); }
  /// Renames the written file onto its final name; false, logged, on failure.
  bool commit();
  /// Logs `message` as an error (once: later failures are its consequences),
  /// removes the temporary file and returns false.
  bool fail(const std::string &message);
  /// Whether open() has not succeeded or something failed since.
  bool failed() const { return failed_; }
  /// Logs "OWNER: wrote N events to 'FILE'" at info level.
  void log_written(uint64_t events) const;

  /// The file itself, for exporters that write it another way (SQLite
  /// through its temporary name, a writer thread).
  OutputFile &file() { return file_; }
  const std::string &final_path() const { return file_.final_path(); }

private:
  ExportHost host_;
  std::string owner_, extension_;
  OutputFile file_;
  bool failed_ = true; ///< until open() succeeds
  bool logged_ = false;
};

} // namespace prof::output

#endif
