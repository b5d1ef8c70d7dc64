#include "perfetto_tracks.hpp"

#include "perfetto_fields.hpp"
#include "trace_packet.hpp"

#include <sstream>

namespace prof::perfetto {

namespace {

constexpr int kMaxDepth = 64; // deeper parent chains are cut (cycles, bad input)

/// Known units map to CounterDescriptor.Unit; anything else goes to unit_name.
uint32_t builtin_unit(std::string_view unit) {
  if (unit == "bytes" || unit == "byte" || unit == "B")
    return field::counter_descriptor::kUnitSizeBytes;
  if (unit == "ns") return field::counter_descriptor::kUnitTimeNs;
  if (unit == "count") return field::counter_descriptor::kUnitCount;
  return 0;
}

} // namespace

void PerfettoTracks::write_descriptor(prof_track_id id, ProtoWriter &out, int depth) {
  if (id >= tracks_.size()) tracks_.resize(static_cast<size_t>(id) + 1);
  if (tracks_[id].written || tracks_[id].visiting) return;
  tracks_[id].visiting = true;

  const prof_track_desc *desc = host_.track(id);
  prof_track_desc fallback{};
  std::string fallback_name;
  if (desc == nullptr) {
    fallback_name = "track " + std::to_string(id);
    fallback.kind = PROF_TRACK_CUSTOM;
    fallback.name = fallback_name.c_str();
    desc = &fallback;
  }
  prof_track_id parent = desc->parent;
  if (parent != 0 && depth < kMaxDepth) {
    write_descriptor(parent, out, depth + 1);
    if (parent >= tracks_.size() || !tracks_[parent].written) parent = 0; // cycle
  } else {
    parent = 0;
  }

  TrackInfo &info = tracks_[id];
  // The process a pid or tid belongs to: this track, or the process above it.
  const prof_track_id process = desc->kind == PROF_TRACK_PROCESS ? id : parent;
  const bool under_process = parent != 0 && host_.track(parent) != nullptr &&
                             host_.track(parent)->kind == PROF_TRACK_PROCESS;
  info.pid = under_process ? tracks_[parent].pid : exported_id(process, desc->pid);
  info.tid = exported_id(process, desc->tid);
  if (info.pid == 0 && parent != 0) info.pid = tracks_[parent].pid;
  const std::string_view name = desc->name != nullptr ? desc->name : "";

  if ((desc->kind == PROF_TRACK_PROCESS && desc->pid > 0) ||
      (desc->kind == PROF_TRACK_THREAD && desc->tid > 0)) {
    if (desc->kind == PROF_TRACK_THREAD && info.pid == 0) info.pid = info.tid;
    info.name = std::string(name);
    write_named(id, *desc, info, name, out);
  } else {
    begin_packet(out, kMainSequenceId);
    out.begin_nested(field::packet::kTrackDescriptor);
    out.field_varint(field::track_descriptor::kUuid, uuid(id));
    if (parent != 0) out.field_varint(field::track_descriptor::kParentUuid, uuid(parent));
    out.field_bytes(field::track_descriptor::kName, name);
    if (desc->kind == PROF_TRACK_COUNTER) {
      info.counter = true;
      write_counter(*desc, out);
    }
    out.end_nested();
    end_packet(out);
  }

  info.visiting = false;
  info.written = true;
  ++written_;
}

int32_t PerfettoTracks::exported_id(prof_track_id process, int32_t raw) {
  if (raw <= 0) return raw;
  auto [owner, first] = id_owner_.try_emplace(raw, process);
  if (first || owner->second == process) return raw;
  auto [stand_in, added] = stand_ins_.try_emplace({process, raw}, 0);
  if (added) stand_in->second = next_stand_in_++;
  return stand_in->second;
}

void PerfettoTracks::write_named(prof_track_id id, const prof_track_desc &desc,
                                 const TrackInfo &info, std::string_view name, ProtoWriter &out) {
  begin_packet(out, kMainSequenceId);
  out.begin_nested(field::packet::kTrackDescriptor);
  out.field_varint(field::track_descriptor::kUuid, uuid(id));
  out.field_bytes(field::track_descriptor::kName, name);
  if (desc.kind == PROF_TRACK_PROCESS) {
    write_process(desc, name, info.pid, out);
  } else {
    out.begin_nested(field::track_descriptor::kThread);
    out.field_int(field::thread_descriptor::kPid, info.pid);
    out.field_int(field::thread_descriptor::kTid, info.tid);
    out.field_bytes(field::thread_descriptor::kThreadName, name);
    out.end_nested();
  }
  out.end_nested();
  end_packet(out);
}

void PerfettoTracks::refresh_names(ProtoWriter &out) {
  for (prof_track_id id = 1; id < tracks_.size(); ++id) {
    TrackInfo &info = tracks_[id];
    if (!info.written) continue;
    const prof_track_desc *desc = host_.track(id);
    if (desc == nullptr || desc->name == nullptr || info.name == desc->name) continue;
    if (!((desc->kind == PROF_TRACK_PROCESS && desc->pid > 0) ||
          (desc->kind == PROF_TRACK_THREAD && desc->tid > 0)))
      continue;
    info.name = desc->name;
    write_named(id, *desc, info, info.name, out);
  }
}

void PerfettoTracks::write_process(const prof_track_desc &desc, std::string_view name, int32_t pid,
                                   ProtoWriter &out) {
  out.begin_nested(field::track_descriptor::kProcess);
  out.field_int(field::process_descriptor::kPid, pid);
  for (const std::string &arg : target_cmdline(desc.pid))
    out.field_bytes(field::process_descriptor::kCmdline, arg);
  out.field_bytes(field::process_descriptor::kProcessName, name);
  out.end_nested();
}

void PerfettoTracks::write_counter(const prof_track_desc &desc, ProtoWriter &out) {
  out.begin_nested(field::track_descriptor::kCounter);
  if (desc.unit != nullptr && desc.unit[0] != '\0') {
    if (const uint32_t unit = builtin_unit(desc.unit); unit != 0)
      out.field_varint(field::counter_descriptor::kUnit, unit);
    else
      out.field_bytes(field::counter_descriptor::kUnitName, desc.unit);
  }
  out.end_nested();
}

std::vector<std::string> PerfettoTracks::target_cmdline(int32_t pid) const {
  // The host knows the command line of the profiled process only.
  std::vector<std::string> args;
  const prof_session_info &session = host_.session();
  if (pid == 0 || pid != session.target_pid || session.command == nullptr) return args;
  std::istringstream words(session.command);
  for (std::string word; words >> word;)
    args.push_back(std::move(word));
  return args;
}

} // namespace prof::perfetto
