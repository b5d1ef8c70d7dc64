#include "csv_tables.hpp"

#include <filesystem>
#include <system_error>

namespace prof::csv {
namespace {

constexpr const char *kHeaders[] = {"id,parent,kind,name,pid,tid,index,unit",
                                    "track,ts_ns,dur_ns,name,category,correlation,kind,args",
                                    "track,ts_ns,name,category,kind,args",
                                    "track,ts_ns,value",
                                    "track,ts_ns,stack,category",
                                    "stack,depth,frame",
                                    "track,ts_ns,flow,phase"};

const char *flow_phase_name(uint8_t phase) {
  switch (phase) {
  case PROF_FLOW_BEGIN:
    return "begin";
  case PROF_FLOW_STEP:
    return "step";
  case PROF_FLOW_END:
    return "end";
  }
  return "unknown";
}

} // namespace

bool CsvTables::open(const std::string &folder, bool overwrite, std::string &error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::exists(folder, ec) && !fs::is_directory(folder, ec)) {
    error = folder + " exists and is not a folder (mode=tables writes a folder of CSV files)";
    return false;
  }
  fs::create_directories(folder, ec);
  if (ec) {
    error = "cannot create folder " + folder + ": " + ec.message();
    return false;
  }
  for (size_t i = 0; i < kFiles.size(); ++i) {
    const std::string path = (fs::path(folder) / kFiles[i]).string();
    if (!files_[i].open(path, overwrite, error)) {
      for (CsvFile &file : files_) file.discard();
      return false;
    }
    files_[i].header(kHeaders[i]);
  }
  return true;
}

void CsvTables::write_track(prof_track_id track, int depth) {
  if (track == 0 || !tracks_written_.insert(track).second) return;
  const prof_track_desc *desc = host_.track(track);
  if (desc == nullptr) return;
  // Parents first, so readers can resolve them row by row; bounded against
  // parent cycles in a damaged report.
  if (depth < 64 && desc->parent != track) write_track(desc->parent, depth + 1);
  track_rows_.push_back(track);
}

void CsvTables::write_track_rows() {
  for (const prof_track_id track : track_rows_) {
    const prof_track_desc *desc = host_.track(track);
    if (desc == nullptr) continue;
    files_[Tracks]
        .field(uint64_t{track})
        .field(uint64_t{desc->parent})
        .field(track_kind_name(desc->kind))
        .field(desc->name ? desc->name : "")
        .field(int64_t{desc->pid})
        .field(int64_t{desc->tid})
        .field(int64_t{desc->index})
        .field(desc->unit ? desc->unit : "")
        .end_row();
  }
}

void CsvTables::write_stack(prof_stack_id stack) {
  if (stack == 0 || !stacks_written_.insert(stack).second) return;
  const auto [frames, count] = host_.stack(stack);
  // Stored leaf first; written root first, depth 0 being the root.
  for (uint32_t depth = 0; depth < count; ++depth)
    files_[Stacks]
        .field(uint64_t{stack})
        .field(uint64_t{depth})
        .field(host_.string(frames[count - 1 - depth]))
        .end_row();
}

void CsvTables::add(const prof_event &e) {
  ++events_;
  write_track(e.track);
  switch (e.type) {
  case PROF_EVENT_SLICE:
    files_[Slices]
        .field(uint64_t{e.track})
        .field(e.ts)
        .field(e.duration)
        .field(host_.string(e.name))
        .field(e.category ? host_.string(e.category) : std::string_view())
        .field(e.id)
        .field(std::string_view(category_name(e.kind)))
        .field(host_.args_text(e.args, ";"))
        .end_row();
    break;
  case PROF_EVENT_INSTANT:
    files_[Instants]
        .field(uint64_t{e.track})
        .field(e.ts)
        .field(host_.string(e.name))
        .field(e.category ? host_.string(e.category) : std::string_view())
        .field(std::string_view(category_name(e.kind)))
        .field(host_.args_text(e.args, ";"))
        .end_row();
    break;
  case PROF_EVENT_COUNTER:
    files_[Counters].field(uint64_t{e.track}).field(e.ts).field(e.value).end_row();
    break;
  case PROF_EVENT_SAMPLE:
    write_stack(static_cast<prof_stack_id>(e.id));
    files_[Samples]
        .field(uint64_t{e.track})
        .field(e.ts)
        .field(e.id)
        .field(e.category ? host_.string(e.category) : std::string_view())
        .end_row();
    break;
  case PROF_EVENT_FLOW:
    files_[Flows]
        .field(uint64_t{e.track})
        .field(e.ts)
        .field(e.id)
        .field(flow_phase_name(e.flags))
        .end_row();
    break;
  default:
    break;
  }
}

bool CsvTables::commit(std::string &error) {
  write_track_rows();
  for (CsvFile &file : files_) {
    if (!file.commit(error)) {
      for (CsvFile &rest : files_) rest.discard();
      return false;
    }
  }
  return true;
}

} // namespace prof::csv
