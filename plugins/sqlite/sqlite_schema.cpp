#include "sqlite_schema.hpp"

namespace prof::sqlite {

const char *const kWritePragmas = "PRAGMA journal_mode=OFF;"
                                  "PRAGMA synchronous=OFF;"
                                  "PRAGMA locking_mode=EXCLUSIVE;"
                                  // Index sorts spill to temporary files, so
                                  // memory does not grow with the report (in
                                  // memory they took 256 MB for 5M slices).
                                  // A larger page cache than the default 2 MB
                                  // makes them slower.
                                  "PRAGMA temp_store=FILE;";

// Times are session nanoseconds (CLOCK_MONOTONIC); string columns hold
// strings.id; 0 ids of prof (no category, no correlation) are NULL.
const char *const kCreateTables = R"sql(
CREATE TABLE session(
  key TEXT PRIMARY KEY,
  value
) WITHOUT ROWID;
CREATE TABLE strings(
  id INTEGER PRIMARY KEY,
  value TEXT NOT NULL
);
CREATE TABLE processes(
  pid INTEGER PRIMARY KEY,
  name TEXT
);
CREATE TABLE threads(
  tid INTEGER PRIMARY KEY,
  pid INTEGER REFERENCES processes(pid),
  name TEXT
);
CREATE TABLE tracks(
  id INTEGER PRIMARY KEY,
  parent_id INTEGER REFERENCES tracks(id),
  kind TEXT NOT NULL,
  name_id INTEGER NOT NULL REFERENCES strings(id),
  pid INTEGER,
  tid INTEGER,
  idx INTEGER,
  unit TEXT,
  device_id INTEGER REFERENCES tracks(id)
);
CREATE TABLE slices(
  id INTEGER PRIMARY KEY,
  track_id INTEGER REFERENCES tracks(id),
  ts INTEGER NOT NULL,
  dur INTEGER NOT NULL,
  end INTEGER GENERATED ALWAYS AS (ts + dur) VIRTUAL,
  name_id INTEGER NOT NULL REFERENCES strings(id),
  category_id INTEGER REFERENCES strings(id),
  correlation_id INTEGER,
  kind TEXT,
  arg_set_id INTEGER
);
CREATE TABLE instants(
  track_id INTEGER REFERENCES tracks(id),
  ts INTEGER NOT NULL,
  name_id INTEGER NOT NULL REFERENCES strings(id),
  category_id INTEGER REFERENCES strings(id),
  kind TEXT,
  arg_set_id INTEGER
);
CREATE TABLE args(
  arg_set_id INTEGER NOT NULL,
  idx INTEGER NOT NULL,
  key_id INTEGER NOT NULL REFERENCES strings(id),
  type TEXT NOT NULL,
  int_value INTEGER,
  real_value REAL,
  string_value_id INTEGER REFERENCES strings(id),
  PRIMARY KEY(arg_set_id, idx)
) WITHOUT ROWID;
CREATE TABLE counters(
  track_id INTEGER REFERENCES tracks(id),
  ts INTEGER NOT NULL,
  value REAL,
  correlation_id INTEGER
);
CREATE TABLE samples(
  track_id INTEGER REFERENCES tracks(id),
  ts INTEGER NOT NULL,
  stack_id INTEGER,
  category_id INTEGER REFERENCES strings(id)
);
CREATE TABLE stacks(
  id INTEGER NOT NULL,
  depth INTEGER NOT NULL,
  frame_name_id INTEGER NOT NULL REFERENCES strings(id),
  PRIMARY KEY(id, depth)
) WITHOUT ROWID;
CREATE TABLE flows(
  flow_id INTEGER NOT NULL,
  phase TEXT NOT NULL,
  track_id INTEGER REFERENCES tracks(id),
  ts INTEGER NOT NULL
);
)sql";

const char *const kCreateIndexes = R"sql(
CREATE INDEX slices_name ON slices(name_id);
CREATE INDEX slices_track_ts ON slices(track_id, ts);
CREATE INDEX slices_correlation ON slices(correlation_id) WHERE correlation_id IS NOT NULL;
CREATE INDEX counters_track_ts ON counters(track_id, ts);
CREATE INDEX slices_kind ON slices(kind) WHERE kind IS NOT NULL;
CREATE INDEX args_key ON args(key_id);
CREATE INDEX flows_flow ON flows(flow_id);
)sql";

const char *flow_phase_name(uint8_t phase) {
  switch (phase) {
  case PROF_FLOW_BEGIN:
    return "begin";
  case PROF_FLOW_END:
    return "end";
  default:
    return "step";
  }
}

} // namespace prof::sqlite
