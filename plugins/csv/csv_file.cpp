#include "csv_file.hpp"

#include <charconv>

namespace prof::csv {

void append_field(std::string &line, std::string_view field) {
  if (field.find_first_of(",\"\r\n") == std::string_view::npos) {
    line += field;
    return;
  }
  line += '"';
  for (char c : field) {
    if (c == '"') line += '"';
    line += c;
  }
  line += '"';
}

std::string format_double(double value) {
  char text[64];
  const auto result = std::to_chars(text, text + sizeof text, value);
  return std::string(text, result.ptr);
}

bool CsvFile::open(const std::string &path, bool overwrite, std::string &error) {
  discard();
  open_ = file_.open(path, overwrite);
  if (!open_) {
    error = file_.error();
    return false;
  }
  buffer_.clear();
  write_failed_ = false;
  rows_ = 0;
  return true;
}

bool CsvFile::write_buffer() {
  if (!buffer_.empty() && !write_failed_)
    write_failed_ = !file_.write(buffer_.data(), buffer_.size());
  buffer_.clear();
  return !write_failed_;
}

CsvFile &CsvFile::field(std::string_view text) {
  if (!first_field_) line_ += ',';
  first_field_ = false;
  append_field(line_, text);
  return *this;
}

CsvFile &CsvFile::field(uint64_t number) {
  char text[24];
  const auto result = std::to_chars(text, text + sizeof text, number);
  return field(std::string_view(text, result.ptr - text));
}

CsvFile &CsvFile::field(int64_t number) {
  char text[24];
  const auto result = std::to_chars(text, text + sizeof text, number);
  return field(std::string_view(text, result.ptr - text));
}

CsvFile &CsvFile::field(double number) { return field(std::string_view(format_double(number))); }

void CsvFile::end_row() {
  line_ += '\n';
  if (open_) {
    buffer_ += line_;
    if (buffer_.size() >= (1u << 20)) write_buffer();
  }
  line_.clear();
  first_field_ = true;
  ++rows_;
}

void CsvFile::header(std::string_view line) {
  line_ += line;
  end_row();
  rows_ = 0;
}

bool CsvFile::commit(std::string &error) {
  if (!open_) {
    error = "cannot write " + path() + ": file is not open";
    return false;
  }
  open_ = false;
  if (!write_buffer() || !file_.commit()) {
    error = file_.error();
    file_.discard();
    return false;
  }
  return true;
}

void CsvFile::discard() {
  open_ = false;
  buffer_.clear();
  file_.discard();
}

} // namespace prof::csv
