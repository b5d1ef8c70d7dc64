#include "database.hpp"

namespace prof::sqlite {

namespace {

std::string cannot_write(const std::string &path) { return "sqlite: cannot write '" + path + "'"; }

} // namespace

Statement &Statement::operator=(Statement &&other) noexcept {
  if (this != &other) {
    sqlite3_finalize(statement_);
    statement_ = other.statement_;
    context_ = std::move(other.context_);
    other.statement_ = nullptr;
  }
  return *this;
}

void Statement::run() {
  const int rc = sqlite3_step(statement_);
  if (rc == SQLITE_DONE) {
    sqlite3_reset(statement_);
    return;
  }
  // sqlite3_reset returns the error of the failed step, errmsg its text.
  sqlite3_reset(statement_);
  throw SqliteError(context_ + ": " + sqlite3_errmsg(sqlite3_db_handle(statement_)));
}

void Database::open(const std::string &path) {
  close();
  path_ = path;
  const int rc =
      sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
  if (rc != SQLITE_OK) {
    // A failed open still returns a handle that holds the error text.
    const std::string text = db_ != nullptr ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
    sqlite3_close_v2(db_);
    db_ = nullptr;
    throw SqliteError(cannot_write(path) + ": " + text);
  }
  sqlite3_extended_result_codes(db_, 1);
}

void Database::fail() const { throw SqliteError(cannot_write(path_) + ": " + sqlite3_errmsg(db_)); }

void Database::exec(const char *sql) {
  if (sqlite3_exec(db_, sql, nullptr, nullptr, nullptr) != SQLITE_OK) fail();
}

Statement Database::prepare(std::string_view sql) {
  sqlite3_stmt *statement = nullptr;
  if (sqlite3_prepare_v3(db_, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                         &statement, nullptr) != SQLITE_OK)
    fail();
  return Statement(statement, cannot_write(path_));
}

void Database::close() {
  if (db_ == nullptr) return;
  sqlite3 *db = db_;
  db_ = nullptr;
  // Statements are finalized by their owners first; v2 closes anyway.
  if (sqlite3_close_v2(db) != SQLITE_OK)
    throw SqliteError(cannot_write(path_) + ": " + sqlite3_errmsg(db));
}

} // namespace prof::sqlite
