// The database's schema, as SQL: the tables created when the export begins
// and the indexes created once the rows are in (building an index over
// sorted-at-the-end data is faster than keeping it up to date row by row).
// docs/sqlite-schema.md documents every table and column.
#ifndef PROF_PLUGINS_SQLITE_SQLITE_SCHEMA_HPP
#define PROF_PLUGINS_SQLITE_SQLITE_SCHEMA_HPP

#include <prof/event.h>

namespace prof::sqlite {

/// Stored as session(key = 'schema_version'); raised when a table changes.
inline constexpr int kSchemaVersion = 2;

/// Connection settings while the temporary file is written: no journal and
/// no syncs (a failed export removes the file), one writer.
extern const char *const kWritePragmas;
extern const char *const kCreateTables;
extern const char *const kCreateIndexes;

/// flows.phase: "begin", "step" or "end" (prof_flow_phase; unknown ones are steps).
const char *flow_phase_name(uint8_t phase);

} // namespace prof::sqlite

#endif
