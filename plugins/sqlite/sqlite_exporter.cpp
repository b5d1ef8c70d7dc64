#include "sqlite_exporter.hpp"

#include <cstddef>

#include "sqlite_schema.hpp"

#include <algorithm>
#include <exception>

namespace prof::sqlite {

SqliteExporter::SqliteExporter(ExportHost host) : host_(host), file_(host, "sqlite", kExtension) {}

SqliteExporter::~SqliteExporter() {
  try {
    close_database();
  } catch (const SqliteError &) { // the temporary file is removed anyway
  }
}

bool SqliteExporter::fail(const std::string &message) {
  open_ = false;
  try {
    close_database();
  } catch (const SqliteError &) { // the first error is the one to tell
  }
  return file_.fail(message);
}

bool SqliteExporter::begin() {
  if (!file_.open(kOptions)) return false;
  try {
    open_database();
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  open_ = true;
  return true;
}

void SqliteExporter::open_database() {
  // OutputFile created the temporary file empty; SQLite takes it as a new database.
  db_.open(file_.file().temporary_path());
  db_.exec(kWritePragmas);
  db_.exec("BEGIN");
  db_.exec(kCreateTables);
  catalog_ = std::make_unique<CatalogRows>(host_, db_);
  insert_slice_ = db_.prepare("INSERT INTO slices(track_id, ts, dur, name_id, category_id, "
                              "correlation_id, kind, arg_set_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, "
                              "?7, ?8)");
  insert_instant_ = db_.prepare("INSERT INTO instants(track_id, ts, name_id, category_id, kind, "
                                "arg_set_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6)");
  insert_counter_ = db_.prepare(
      "INSERT INTO counters(track_id, ts, value, correlation_id) VALUES(?1, ?2, ?3, ?4)");
  insert_sample_ = db_.prepare(
      "INSERT INTO samples(track_id, ts, stack_id, category_id) VALUES(?1, ?2, ?3, ?4)");
  insert_flow_ =
      db_.prepare("INSERT INTO flows(track_id, ts, flow_id, phase) VALUES(?1, ?2, ?3, ?4)");
}

bool SqliteExporter::consume(const prof_event *events, size_t count) {
  if (!open_) return false;
  try {
    for (size_t i = 0; i < count; ++i) {
      write(events[i]);
      if (++in_transaction_ >= kRowsPerTransaction) {
        db_.exec("COMMIT; BEGIN");
        in_transaction_ = 0;
      }
    }
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  return true;
}

void SqliteExporter::write(const prof_event &e) {
  CatalogRows &catalog = *catalog_;
  Statement *row = nullptr;
  switch (e.type) {
  case PROF_EVENT_SLICE:
    row = &insert_slice_;
    row->bind(3, static_cast<int64_t>(e.duration));
    row->bind(4, catalog.string(e.name));
    row->bind_optional_id(5, catalog.optional_string(e.category));
    row->bind_optional_id(6, e.id);
    bind_kind_and_args(*row, 7, e);
    break;
  case PROF_EVENT_INSTANT:
    row = &insert_instant_;
    row->bind(3, catalog.string(e.name));
    row->bind_optional_id(4, catalog.optional_string(e.category));
    bind_kind_and_args(*row, 5, e);
    break;
  case PROF_EVENT_COUNTER:
    row = &insert_counter_;
    row->bind(3, e.value);
    row->bind_optional_id(4, e.id);
    break;
  case PROF_EVENT_SAMPLE:
    catalog.use_stack(static_cast<prof_stack_id>(e.id));
    row = &insert_sample_;
    row->bind_optional_id(3, e.id);
    row->bind_optional_id(4, catalog.optional_string(e.category));
    break;
  case PROF_EVENT_FLOW:
    row = &insert_flow_;
    row->bind_id(3, e.id);
    row->bind(4, std::string_view(flow_phase_name(e.flags)));
    break;
  default:
    ++skipped_;
    return;
  }
  catalog.use_track(e.track);
  row->bind_optional_id(1, e.track);
  row->bind(2, static_cast<int64_t>(e.ts));
  row->run();
  ++events_;
  first_ts_ = std::min(first_ts_, e.ts);
  last_ts_ = std::max(last_ts_, e.type == PROF_EVENT_SLICE ? e.ts + e.duration : e.ts);
}

void SqliteExporter::bind_kind_and_args(Statement &row, int column, const prof_event &e) {
  const std::string_view kind = category_name(e.kind);
  if (kind.empty())
    row.bind_null(column);
  else
    row.bind(column, kind);
  const auto args = static_cast<prof_args_id>(e.args);
  if (!host_.args(args).empty()) {
    catalog_->use_args(args);
    row.bind(column + 1, int64_t{args});
  } else {
    row.bind_null(column + 1);
  }
}

bool SqliteExporter::end() {
  if (!open_) return false;
  try {
    catalog_->refresh_names();
    write_session();
    db_.exec(kCreateIndexes);
    db_.exec("COMMIT");
    close_database();
  } catch (const std::exception &e) {
    return fail(e.what());
  }
  open_ = false;
  if (!file_.commit()) return false;
  if (skipped_ > 0)
    host_.log(PROF_LOG_WARN,
              "sqlite: " + std::to_string(skipped_) + " events of an unknown type left out");
  file_.log_written(events_);
  return true;
}

void SqliteExporter::write_session() {
  Statement row = db_.prepare("INSERT OR REPLACE INTO session(key, value) VALUES(?1, ?2)");
  const auto text = [&](std::string_view key, std::string_view value) {
    row.bind(1, key);
    row.bind(2, value);
    row.run();
  };
  const auto number = [&](std::string_view key, int64_t value) {
    row.bind(1, key);
    row.bind(2, value);
    row.run();
  };
  const prof_session_info &session = host_.session();
  const auto or_empty = [](const char *s) { return std::string_view(s != nullptr ? s : ""); };
  number("schema_version", kSchemaVersion);
  text("exporter", std::string("sqlite ") + kPluginVersion);
  text("clock", "CLOCK_MONOTONIC");
  text("time_unit", "ns");
  text("session_name", or_empty(session.session_name));
  text("command", or_empty(session.command));
  text("hostname", or_empty(session.hostname));
  number("target_pid", session.target_pid);
  if (session.struct_size >= offsetof(prof_session_info, start_ns) + sizeof(session.start_ns) &&
      session.realtime_anchor_ns != 0) {
    // ts + (realtime_anchor_ns - monotonic_anchor_ns) is wall-clock time.
    number("realtime_anchor_ns", static_cast<int64_t>(session.realtime_anchor_ns));
    number("monotonic_anchor_ns", static_cast<int64_t>(session.monotonic_anchor_ns));
    number("session_start_ns", static_cast<int64_t>(session.start_ns));
  }
  if (session.struct_size >= offsetof(prof_session_info, rank) + sizeof(session.rank)) {
    std::string pids;
    for (uint32_t i = 0; session.pids && i < session.pid_count; ++i)
      pids += (i ? "," : "") + std::to_string(session.pids[i]);
    if (!pids.empty()) text("pids", pids);
    if (!or_empty(session.plugins).empty()) text("plugins", or_empty(session.plugins));
    if (!or_empty(session.rank).empty()) text("rank", or_empty(session.rank));
  }
  number("dropped_events", static_cast<int64_t>(host_.dropped_events()));
  number("events", static_cast<int64_t>(events_));
  number("skipped_events", static_cast<int64_t>(skipped_));
  if (events_ > 0) {
    number("first_event_ns", static_cast<int64_t>(first_ts_));
    number("last_event_end_ns", static_cast<int64_t>(last_ts_));
  }
  for (const char *option : {"path", "overwrite"})
    if (const auto value = host_.option(option))
      text(std::string("plugin.sqlite.") + option, *value);
}

void SqliteExporter::close_database() {
  // Statements first: SQLite keeps the file open while one is alive.
  insert_slice_ = {};
  insert_instant_ = {};
  insert_counter_ = {};
  insert_sample_ = {};
  insert_flow_ = {};
  catalog_.reset();
  db_.close();
}

} // namespace prof::sqlite
