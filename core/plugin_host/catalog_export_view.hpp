// The exporter's view of a live capture (or of a catalog loaded from a
// report): its strings, tracks, stacks and arguments, the session info, and
// the drops counted at its end.
#pragma once

#include "core/catalog/catalog.hpp"
#include "core/events/event_sink.hpp"
#include "core/plugin_host/export_view.hpp"

#include <array>

namespace prof::core {

class CatalogExportView : public ExportView {
public:
  /// `catalog` and `session` must outlive the view.
  CatalogExportView(const Catalog &catalog, const prof_session_info &session)
      : catalog_(catalog), session_(session) {}

  const char *string(prof_string_id id) const override { return catalog_.strings.text(id).c_str(); }
  const prof_track_desc *track(prof_track_id id) const override {
    return catalog_.tracks.current(id);
  }
  std::span<const prof_string_id> stack(prof_stack_id id) const override {
    return catalog_.stacks.frames(id);
  }
  std::span<const prof_arg> args(prof_args_id id) const override { return catalog_.args.args(id); }
  std::vector<prof_track_id> processes(int32_t pid) const override {
    return catalog_.tracks.processes(pid);
  }
  const prof_session_info &session() const override { return session_; }
  uint64_t dropped(prof_drop_cause cause) const override {
    return cause < PROF_DROP_CAUSE_COUNT ? dropped_[cause] : 0;
  }
  /// The drops of the whole capture, known at its end.
  void set_drops(const CaptureEnd &end) {
    for (int cause = 0; cause < PROF_DROP_CAUSE_COUNT; ++cause)
      dropped_[cause] = end.lost(static_cast<prof_drop_cause>(cause));
  }

private:
  const Catalog &catalog_;
  const prof_session_info &session_;
  std::array<uint64_t, PROF_DROP_CAUSE_COUNT> dropped_{};
};

} // namespace prof::core
