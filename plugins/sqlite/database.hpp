// Database and Statement: the little of SQLite's C API the exporter uses,
// with RAII and one error type. Every failure throws SqliteError whose text
// is one line for the user ("sqlite: cannot write 'x.sqlite': disk is full").
#ifndef PROF_PLUGINS_SQLITE_DATABASE_HPP
#define PROF_PLUGINS_SQLITE_DATABASE_HPP

#include <sqlite3.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace prof::sqlite {

/// A failed SQLite call; what() is the whole message.
class SqliteError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// One prepared statement, bound by position (1-based) and run row by row.
class Statement {
public:
  Statement() = default;
  Statement(sqlite3_stmt *statement, std::string context)
      : statement_(statement), context_(std::move(context)) {}
  Statement(Statement &&other) noexcept { *this = std::move(other); }
  Statement &operator=(Statement &&other) noexcept;
  Statement(const Statement &) = delete;
  Statement &operator=(const Statement &) = delete;
  ~Statement() { sqlite3_finalize(statement_); }

  void bind(int column, int64_t value) { sqlite3_bind_int64(statement_, column, value); }
  /// 64-bit ids keep their bits: ids of 2^63 and above read back negative.
  void bind_id(int column, uint64_t value) {
    sqlite3_bind_int64(statement_, column, static_cast<int64_t>(value));
  }
  /// An id where 0 means "none": NULL then.
  void bind_optional_id(int column, uint64_t value) {
    if (value == 0)
      sqlite3_bind_null(statement_, column);
    else
      bind_id(column, value);
  }
  /// SQLite stores a NaN as NULL.
  void bind(int column, double value) { sqlite3_bind_double(statement_, column, value); }
  /// Copies `text`.
  void bind(int column, std::string_view text) {
    sqlite3_bind_text64(statement_, column, text.data(), text.size(), SQLITE_TRANSIENT,
                        SQLITE_UTF8);
  }
  void bind_null(int column) { sqlite3_bind_null(statement_, column); }

  /// Runs a statement that returns no rows and resets it for the next one.
  void run();

private:
  sqlite3_stmt *statement_ = nullptr;
  std::string context_; ///< "cannot write 'path'", the start of every error
};

/// One open database file.
class Database {
public:
  Database() = default;
  Database(const Database &) = delete;
  Database &operator=(const Database &) = delete;
  ~Database() { sqlite3_close_v2(db_); }

  /// Opens (or creates) `path` for writing.
  void open(const std::string &path);
  /// Runs one or more statements separated by ';'.
  void exec(const char *sql);
  Statement prepare(std::string_view sql);
  /// Closes the file; throws when SQLite could not finish writing it.
  void close();
  bool is_open() const { return db_ != nullptr; }

private:
  [[noreturn]] void fail() const;

  sqlite3 *db_ = nullptr;
  std::string path_;
};

} // namespace prof::sqlite

#endif
