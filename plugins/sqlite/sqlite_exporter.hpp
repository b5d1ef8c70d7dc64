// SqliteExporter: writes a capture into one SQLite database (schema:
// sqlite_schema.cpp, documented in docs/sqlite-schema.md) for SQL, pandas
// and notebooks. Rows go in through prepared statements, in transactions of
// kRowsPerTransaction events, into a temporary file with no journal and no
// syncs; the indexes are built at the end and the file is renamed to its
// final name only when everything was written. A failure removes the
// temporary file: nothing half-written is ever left under the final name.
//
// Every event becomes one row, in arrival order (batches are time-ordered
// within a producer only): slices, instants, counters, samples and flows,
// whatever their track. The strings, tracks, processes, threads and stacks
// they use are written with them (catalog_rows.hpp). Events of an unknown
// type are left out and counted.
#ifndef PROF_PLUGINS_SQLITE_SQLITE_EXPORTER_HPP
#define PROF_PLUGINS_SQLITE_SQLITE_EXPORTER_HPP

#include "catalog_rows.hpp"
#include "database.hpp"
#include <prof/output/exporter_output.hpp>

#include <prof/plugin.hpp>

#include <cstdint>
#include <memory>
#include <string>

namespace prof::sqlite {

/// The plugin's option table: its descriptor's, and what DeclaredOptions
/// reads each default from.
inline constexpr prof_option_desc kOptions[] = {
    {"path", PROF_OPTION_STRING, nullptr, 0, -1, nullptr,
     "output file, or a folder (existing or ending in '/') that receives prof-<pid>.sqlite"},
    output::kOverwriteOption,
};

/// What a folder given as `path` receives: prof-<pid>.sqlite.
inline constexpr const char *kExtension = ".sqlite";

/// The plugin's version, also stored in the session table.
inline constexpr const char *kPluginVersion = "1.0.0";

class SqliteExporter {
public:
  explicit SqliteExporter(ExportHost host);
  ~SqliteExporter();
  SqliteExporter(const SqliteExporter &) = delete;
  SqliteExporter &operator=(const SqliteExporter &) = delete;

  bool begin();
  bool consume(const prof_event *events, size_t count);
  bool end();

  /// Events written per transaction.
  static constexpr uint64_t kRowsPerTransaction = 1'000'000;

private:
  void open_database();
  void write(const prof_event &e);
  /// Binds `kind` and `arg_set_id` at `column` and the one after, writing the set.
  void bind_kind_and_args(Statement &row, int column, const prof_event &e);
  void write_session();
  void close_database();
  bool fail(const std::string &message);

  ExportHost host_;
  output::ExporterOutput file_;
  // Declared after the file and the database, so destroyed before them.
  Database db_;
  std::unique_ptr<CatalogRows> catalog_;
  Statement insert_slice_;
  Statement insert_instant_;
  Statement insert_counter_;
  Statement insert_sample_;
  Statement insert_flow_;
  bool open_ = false;
  uint64_t in_transaction_ = 0;
  uint64_t events_ = 0;
  uint64_t skipped_ = 0;
  uint64_t first_ts_ = UINT64_MAX;
  uint64_t last_ts_ = 0;
};

} // namespace prof::sqlite

#endif
