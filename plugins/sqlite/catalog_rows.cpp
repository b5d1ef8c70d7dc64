#include "catalog_rows.hpp"

#include "sqlite_schema.hpp"

namespace prof::sqlite {

CatalogRows::CatalogRows(ExportHost host, Database &db)
    : host_(host), db_(db),
      insert_string_(db.prepare("INSERT INTO strings(id, value) VALUES(?1, ?2)")),
      insert_track_(db.prepare("INSERT INTO tracks(id, parent_id, kind, name_id, pid, tid, idx, "
                               "unit, device_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9)")),
      upsert_process_(db.prepare("INSERT INTO processes(pid, name) VALUES(?1, ?2) "
                                 "ON CONFLICT(pid) DO UPDATE SET "
                                 "name = COALESCE(processes.name, excluded.name)")),
      upsert_thread_(db.prepare("INSERT INTO threads(tid, pid, name) VALUES(?1, ?2, ?3) "
                                "ON CONFLICT(tid) DO UPDATE SET "
                                "pid = COALESCE(threads.pid, excluded.pid), "
                                "name = COALESCE(threads.name, excluded.name)")),
      insert_frame_(db.prepare("INSERT INTO stacks(id, depth, frame_name_id) VALUES(?1, ?2, ?3)")),
      insert_arg_(db.prepare("INSERT INTO args(arg_set_id, idx, key_id, type, int_value, "
                             "real_value, string_value_id) VALUES(?1, ?2, ?3, ?4, ?5, ?6, ?7)")) {}

uint32_t CatalogRows::add_string(prof_string_id id) {
  const uint32_t row = text_row(host_.string(id));
  string_rows_.set(id, row);
  return row;
}

uint32_t CatalogRows::text_row(std::string_view text) {
  auto [found, added] =
      text_rows_.try_emplace(std::string(text), static_cast<uint32_t>(text_rows_.size() + 1));
  if (added) {
    insert_string_.bind(1, int64_t{found->second});
    insert_string_.bind(2, text);
    insert_string_.run();
  }
  return found->second;
}

void CatalogRows::add_track(prof_track_id id, int depth) {
  tracks_.set(id, TrackState{true, 0}); // first, so a cycle ends here
  const prof_track_desc *desc = host_.track(id);
  const prof_track_kind kind = desc != nullptr ? desc->kind : PROF_TRACK_CUSTOM;
  prof_track_id parent = desc != nullptr ? desc->parent : 0;
  if (depth >= kMaxTrackDepth) parent = 0;
  if (parent != 0 && !tracks_.get(parent).written) add_track(parent, depth + 1);
  const prof_track_id device = kind == PROF_TRACK_DEVICE ? id : tracks_.get(parent).device;
  tracks_.set(id, TrackState{true, device});

  const std::string_view name = desc != nullptr && desc->name != nullptr ? desc->name : "";
  const int32_t pid = desc != nullptr ? desc->pid : 0;
  const int32_t tid = desc != nullptr ? desc->tid : 0;
  const int32_t index = desc != nullptr ? desc->index : -1;
  Statement &row = insert_track_;
  row.bind(1, int64_t{id});
  row.bind_optional_id(2, parent);
  row.bind(3, std::string_view(track_kind_name(kind)));
  row.bind(4, int64_t{text_row(name)});
  pid != 0 ? row.bind(5, int64_t{pid}) : row.bind_null(5);
  tid != 0 ? row.bind(6, int64_t{tid}) : row.bind_null(6);
  index >= 0 ? row.bind(7, int64_t{index}) : row.bind_null(7);
  if (desc != nullptr && desc->unit != nullptr && desc->unit[0] != '\0')
    row.bind(8, std::string_view(desc->unit));
  else
    row.bind_null(8);
  row.bind_optional_id(9, device);
  row.run();

  if (kind == PROF_TRACK_PROCESS || kind == PROF_TRACK_THREAD) named_[id] = std::string(name);
  if (pid != 0 && (kind == PROF_TRACK_PROCESS || kind == PROF_TRACK_THREAD)) {
    upsert_process_.bind(1, int64_t{pid});
    kind == PROF_TRACK_PROCESS ? upsert_process_.bind(2, name) : upsert_process_.bind_null(2);
    upsert_process_.run();
  }
  if (tid != 0 && kind == PROF_TRACK_THREAD) {
    upsert_thread_.bind(1, int64_t{tid});
    pid != 0 ? upsert_thread_.bind(2, int64_t{pid}) : upsert_thread_.bind_null(2);
    upsert_thread_.bind(3, name);
    upsert_thread_.run();
  }
}

void CatalogRows::refresh_names() {
  Statement track = db_.prepare("UPDATE tracks SET name_id = ?2 WHERE id = ?1");
  Statement process = db_.prepare("UPDATE processes SET name = ?2 WHERE pid = ?1");
  Statement thread = db_.prepare("UPDATE threads SET name = ?2 WHERE tid = ?1");
  for (auto &[id, written] : named_) {
    const prof_track_desc *desc = host_.track(id);
    if (desc == nullptr || desc->name == nullptr || written == desc->name) continue;
    written = desc->name;
    track.bind(1, int64_t{id});
    track.bind(2, int64_t{text_row(written)});
    track.run();
    Statement &owner = desc->kind == PROF_TRACK_PROCESS ? process : thread;
    const int32_t key = desc->kind == PROF_TRACK_PROCESS ? desc->pid : desc->tid;
    if (key == 0) continue;
    owner.bind(1, int64_t{key});
    owner.bind(2, std::string_view(written));
    owner.run();
  }
}

void CatalogRows::add_stack(prof_stack_id id) {
  stacks_.set(id, true);
  const auto [frames, count] = host_.stack(id);
  for (uint32_t depth = 0; depth < count; ++depth) {
    insert_frame_.bind(1, int64_t{id});
    insert_frame_.bind(2, int64_t{depth});
    insert_frame_.bind(3, string(frames[depth]));
    insert_frame_.run();
  }
}

void CatalogRows::add_args(prof_args_id id) {
  arg_sets_.set(id, true);
  const std::span<const prof_arg> args = host_.args(id);
  for (size_t i = 0; i < args.size(); ++i) {
    const prof_arg &a = args[i];
    insert_arg_.bind(1, int64_t{id});
    insert_arg_.bind(2, static_cast<int64_t>(i));
    insert_arg_.bind(3, string(a.key));
    insert_arg_.bind_null(5);
    insert_arg_.bind_null(6);
    insert_arg_.bind_null(7);
    switch (a.type) {
    case PROF_ARG_INT:
      insert_arg_.bind(4, std::string_view("int"));
      insert_arg_.bind(5, a.value.i);
      break;
    case PROF_ARG_UINT: // the same 64 bits: 2^63 and above read back negative
      insert_arg_.bind(4, std::string_view("uint"));
      insert_arg_.bind(5, static_cast<int64_t>(a.value.u));
      break;
    case PROF_ARG_DOUBLE:
      insert_arg_.bind(4, std::string_view("real"));
      if (a.value.d == a.value.d) insert_arg_.bind(6, a.value.d);
      break;
    case PROF_ARG_STACK: // a stacks.id
      insert_arg_.bind(4, std::string_view("stack"));
      insert_arg_.bind(5, static_cast<int64_t>(a.value.u));
      use_stack(static_cast<prof_stack_id>(a.value.u));
      break;
    default:
      insert_arg_.bind(4, std::string_view("string"));
      insert_arg_.bind(7, string(a.value.s));
      break;
    }
    insert_arg_.run();
  }
}

} // namespace prof::sqlite
