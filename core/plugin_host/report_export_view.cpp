#include "core/plugin_host/report_export_view.hpp"

namespace prof::core {

ReportExportView::ReportExportView(const report::ReportReader &reader) : reader_(reader) {
  for (const auto &[id, track] : reader.tracks())
    tracks_.emplace(id, prof_track_desc{sizeof(prof_track_desc), track.kind, track.parent,
                                        track.name.c_str(), track.pid, track.tid, track.index,
                                        track.unit.empty() ? nullptr : track.unit.c_str(),
                                        track.clock, track.flags});
  for (const auto &[id, track] : reader.tracks())
    if (track.kind == PROF_TRACK_PROCESS) processes_.emplace(track.pid, id);
  session_ = session_of(reader.header(), details_);
}

const char *ReportExportView::string(prof_string_id id) const {
  const auto &strings = reader_.strings();
  return id < strings.size() ? strings[id].c_str() : "";
}

const prof_track_desc *ReportExportView::track(prof_track_id id) const {
  const auto found = tracks_.find(id);
  return found == tracks_.end() ? nullptr : &found->second;
}

std::vector<prof_track_id> ReportExportView::processes(int32_t pid) const {
  std::vector<prof_track_id> found;
  for (auto [at, end] = processes_.equal_range(pid); at != end; ++at)
    found.push_back(at->second);
  return found;
}

std::span<const prof_string_id> ReportExportView::stack(prof_stack_id id) const {
  const report::StackRecord *record = reader_.stack(id);
  return record ? std::span<const prof_string_id>(record->frames)
                : std::span<const prof_string_id>();
}

std::span<const prof_arg> ReportExportView::args(prof_args_id id) const {
  return reader_.args().find(id).value_or(std::span<const prof_arg>());
}

} // namespace prof::core
