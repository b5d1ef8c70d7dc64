// One CSV output file: RFC 4180 quoting, written through the SDK's
// OutputFile (a temporary name renamed onto the final path by commit();
// removed if never committed).
#ifndef PROF_PLUGINS_CSV_CSV_FILE_HPP
#define PROF_PLUGINS_CSV_CSV_FILE_HPP

#include <prof/output/output_file.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace prof::csv {

/// Appends `field` to `line`, quoted when it holds a comma, a quote, CR or
/// LF (quotes doubled), as RFC 4180 asks.
void append_field(std::string &line, std::string_view field);

/// Shortest text that reads back as the same double ("0.5", "1e+20").
std::string format_double(double value);

class CsvFile {
public:
  CsvFile() = default;
  CsvFile(const CsvFile &) = delete;
  CsvFile &operator=(const CsvFile &) = delete;
  ~CsvFile() { discard(); }

  /// Opens the temporary file for `path`, refusing an existing file unless
  /// `overwrite`; on failure returns false and sets `error` to a sentence
  /// naming the file.
  bool open(const std::string &path, bool overwrite, std::string &error);

  /// Row building: field() appends one field, end_row() writes the line.
  CsvFile &field(std::string_view text);
  CsvFile &field(uint64_t number);
  CsvFile &field(int64_t number);
  CsvFile &field(double number);
  void end_row();
  /// A row of literal header names (no quoting needed).
  void header(std::string_view line);

  /// Closes the temporary file and renames it onto the path.
  bool commit(std::string &error);
  /// Closes and removes the temporary file (no-op once committed).
  void discard();

  const std::string &path() const { return file_.final_path(); }
  const std::string &temp_path() const { return file_.temporary_path(); }
  uint64_t rows() const { return rows_; }

private:
  bool write_buffer();

  output::OutputFile file_{""}; // the exporter names itself in its errors
  bool open_ = false;
  bool write_failed_ = false;
  std::string buffer_, line_;
  bool first_field_ = true;
  uint64_t rows_ = 0;
};

} // namespace prof::csv

#endif
