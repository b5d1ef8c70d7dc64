// Reads a database written by the sqlite exporter back with the sqlite3 C
// API: query results as rows of text ("NULL" for NULL), for exact checks.
#ifndef PROF_TESTS_SQLITE_SQLITE_ROWS_HPP
#define PROF_TESTS_SQLITE_SQLITE_ROWS_HPP

#include <sqlite3.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace prof::sqlite::testing {

using Rows = std::vector<std::vector<std::string>>;

/// A database opened read-only; every query failure fails the test.
class SqliteRows {
public:
  explicit SqliteRows(const std::string &path) {
    if (sqlite3_open_v2(path.c_str(), &db_, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
      ADD_FAILURE() << "cannot open '" << path << "': " << sqlite3_errmsg(db_);
  }
  ~SqliteRows() { sqlite3_close(db_); }
  SqliteRows(const SqliteRows &) = delete;
  SqliteRows &operator=(const SqliteRows &) = delete;

  /// Every row of `sql`; on error, one row holding the error text.
  Rows query(const std::string &sql) const {
    Rows rows;
    sqlite3_stmt *statement = nullptr;
    if (sqlite3_prepare_v2(db_, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      return {{std::string("error: ") + sqlite3_errmsg(db_)}};
    }
    int rc;
    while ((rc = sqlite3_step(statement)) == SQLITE_ROW) {
      std::vector<std::string> row;
      for (int i = 0; i < sqlite3_column_count(statement); ++i) {
        const auto *text = reinterpret_cast<const char *>(sqlite3_column_text(statement, i));
        row.emplace_back(text != nullptr ? text : "NULL");
      }
      rows.push_back(std::move(row));
    }
    if (rc != SQLITE_DONE) {
      ADD_FAILURE() << sql << ": " << sqlite3_errmsg(db_);
      rows.push_back({std::string("error: ") + sqlite3_errmsg(db_)});
    }
    sqlite3_finalize(statement);
    return rows;
  }
  /// The one value of a one-row, one-column query.
  std::string value(const std::string &sql) const {
    const Rows rows = query(sql);
    return rows.size() == 1 && rows[0].size() == 1 ? rows[0][0] : "<not one value>";
  }

private:
  sqlite3 *db_ = nullptr;
};

} // namespace prof::sqlite::testing

#endif
