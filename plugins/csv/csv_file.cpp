#include "csv_file.hpp"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <unistd.h>

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

bool CsvFile::open(const std::string &path, std::string &error) {
  discard();
  path_ = path;
  temp_ = path + ".tmp." + std::to_string(getpid());
  out_ = std::fopen(temp_.c_str(), "w");
  if (out_ == nullptr) {
    error = "cannot write " + temp_ + ": " + std::strerror(errno);
    temp_.clear();
    return false;
  }
  std::setvbuf(out_, nullptr, _IOFBF, 1 << 20);
  rows_ = 0;
  return true;
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
  if (out_ != nullptr) std::fwrite(line_.data(), 1, line_.size(), out_);
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
  if (out_ == nullptr) {
    error = "cannot write " + path_ + ": file is not open";
    return false;
  }
  const bool written = std::ferror(out_) == 0;
  const int saved = errno;
  const bool closed = std::fclose(out_) == 0;
  out_ = nullptr;
  if (!written || !closed) {
    error = "cannot write " + temp_ + ": " + std::strerror(written ? errno : saved);
    discard();
    return false;
  }
  if (std::rename(temp_.c_str(), path_.c_str()) != 0) {
    error = "cannot rename " + temp_ + " to " + path_ + ": " + std::strerror(errno);
    discard();
    return false;
  }
  temp_.clear();
  return true;
}

void CsvFile::discard() {
  if (out_ != nullptr) {
    std::fclose(out_);
    out_ = nullptr;
  }
  if (!temp_.empty()) {
    std::remove(temp_.c_str());
    temp_.clear();
  }
}

} // namespace prof::csv
