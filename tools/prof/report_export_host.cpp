#include "tools/prof/report_export_host.hpp"

namespace prof::tool {

struct ReportExportHostApi {
  static const ReportExportHost &self(void *host) {
    return *static_cast<const ReportExportHost *>(host);
  }
  static const char *string(void *host, prof_string_id id) {
    const auto &strings = self(host).reader_.strings();
    return id < strings.size() ? strings[id].c_str() : "";
  }
  static const prof_track_desc *track(void *host, prof_track_id id) {
    const auto &tracks = self(host).tracks_;
    const auto found = tracks.find(id);
    return found == tracks.end() ? nullptr : &found->second;
  }
  static const prof_string_id *stack(void *host, prof_stack_id id, uint32_t *count) {
    const report::StackRecord *record = self(host).reader_.stack(id);
    if (count) *count = record ? static_cast<uint32_t>(record->frames.size()) : 0;
    return record && !record->frames.empty() ? record->frames.data() : nullptr;
  }
  static const prof_session_info *session_info(void *host) { return &self(host).session_; }
  static void print(void *, const char *) {}
  static void log(void *, prof_log_level, const char *) {}
  static const char *get_option(void *, const char *) { return nullptr; }
  static uint64_t dropped_events(void *host) { return self(host).reader_.total_dropped(); }
  static const prof_arg *args(void *host, prof_args_id id, uint32_t *count) {
    const auto &sets = self(host).reader_.args();
    const auto found = sets.find(id);
    const bool known = found != sets.end() && !found->second.args.empty();
    if (count) *count = known ? static_cast<uint32_t>(found->second.args.size()) : 0;
    return known ? found->second.args.data() : nullptr;
  }
};

const prof_export_api ReportExportHost::api_ = {sizeof(prof_export_api),
                                                &ReportExportHostApi::string,
                                                &ReportExportHostApi::track,
                                                &ReportExportHostApi::stack,
                                                &ReportExportHostApi::session_info,
                                                &ReportExportHostApi::print,
                                                &ReportExportHostApi::log,
                                                &ReportExportHostApi::get_option,
                                                &ReportExportHostApi::dropped_events,
                                                &ReportExportHostApi::args};

ReportExportHost::ReportExportHost(const report::ReportReader &reader) : reader_(reader) {
  for (const auto &[id, track] : reader.tracks())
    tracks_.emplace(id, prof_track_desc{sizeof(prof_track_desc), track.kind, track.parent,
                                        track.name.c_str(), track.pid, track.tid, track.index,
                                        track.unit.empty() ? nullptr : track.unit.c_str(),
                                        track.clock});
  const report::Header &header = reader.header();
  session_ = session_of(header, details_);
}

} // namespace prof::tool
