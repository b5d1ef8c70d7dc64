// CatalogRows: the rows events refer to (strings, tracks, processes,
// threads, stacks), each written the first time an event uses it, so the
// database holds exactly what its events need.
//
// strings.id is the database's own: one row per distinct text, whether it
// came from prof's string table (names, categories, frames) or from a track
// (track names). tracks.id and stacks.id are prof's ids. A track's
// ancestors are written with it; device_id is the track itself for a device
// track, else its nearest device ancestor (NULL on the host).
#ifndef PROF_PLUGINS_SQLITE_CATALOG_ROWS_HPP
#define PROF_PLUGINS_SQLITE_CATALOG_ROWS_HPP

#include "database.hpp"
#include "id_table.hpp"

#include <prof/plugin.hpp>

#include <string>
#include <string_view>
#include <unordered_map>

namespace prof::sqlite {

class CatalogRows {
public:
  CatalogRows(ExportHost host, Database &db);

  /// strings.id of prof string `id` (the empty string's row for 0).
  int64_t string(prof_string_id id) {
    const uint32_t row = string_rows_.get(id);
    return row != 0 ? row : add_string(id);
  }
  /// strings.id of `id`, or 0 (written as NULL) when `id` is 0.
  int64_t optional_string(prof_string_id id) { return id == 0 ? 0 : string(id); }
  /// Writes track `id` (and its ancestors, process and thread) if not yet written.
  void use_track(prof_track_id id) {
    if (id != 0 && !tracks_.get(id).written) add_track(id, 0);
  }
  /// Writes the frames of stack `id` if not yet written.
  void use_stack(prof_stack_id id) {
    if (id != 0 && !stacks_.get(id)) add_stack(id);
  }
  /// Writes the arguments of set `id` if not yet written.
  void use_args(prof_args_id id) {
    if (id != 0 && !arg_sets_.get(id)) add_args(id);
  }
  /// Gives the process and thread tracks written so far the names the host
  /// has for them now: a process that exec'd after its first events takes
  /// its new program's name.
  void refresh_names();

private:
  struct TrackState {
    bool written = false;
    prof_track_id device = 0; ///< enclosing device track, 0 on the host
  };
  /// Deeper parent chains (or cycles) are cut there: the track becomes a root.
  static constexpr int kMaxTrackDepth = 64;

  uint32_t add_string(prof_string_id id);
  uint32_t text_row(std::string_view text);
  void add_track(prof_track_id id, int depth);
  void add_stack(prof_stack_id id);
  void add_args(prof_args_id id);

  ExportHost host_;
  Database &db_;
  /// Process and thread tracks written, with the name written.
  std::unordered_map<prof_track_id, std::string> named_;
  Statement insert_string_;
  Statement insert_track_;
  Statement upsert_process_;
  Statement upsert_thread_;
  Statement insert_frame_;
  Statement insert_arg_;
  IdTable<uint32_t> string_rows_; ///< prof string id -> strings.id
  std::unordered_map<std::string, uint32_t> text_rows_;
  IdTable<TrackState> tracks_;
  IdTable<bool> stacks_;
  IdTable<bool> arg_sets_;
};

} // namespace prof::sqlite

#endif
