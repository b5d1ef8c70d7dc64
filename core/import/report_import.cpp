#include "core/import/report_import.hpp"

#include "core/catalog/args_folding.hpp"
#include "core/catalog/catalog.hpp"
#include "core/events/report_sink.hpp"
#include "core/report/report_error.hpp"
#include "core/runtime/host_emitters.hpp"

#include <prof/host_api_table.hpp>

#include <algorithm>
#include <array>
#include <filesystem>
#include <utility>

namespace prof::core {
namespace {

/// What an importer emitted, and the facts it gave.
struct ImportSession : HostEmitters<ImportSession> {
  Catalog catalog;
  std::vector<prof_event> records;
  std::array<uint64_t, PROF_DROP_CAUSE_COUNT> lost{};
  std::vector<std::string> errors, warnings;
  prof_session_info info{};
  bool has_facts = false;
  std::string program, format, rank;
  std::vector<int32_t> pids;
  uint64_t realtime_anchor = 0, monotonic_anchor = 0, start = 0;
  std::vector<std::pair<std::string, std::string>> details;

  static ImportSession &self(void *host) { return *static_cast<ImportSession *>(host); }
  static void emit(void *host, const prof_event &event) { self(host).records.push_back(event); }
  static void emit_group(void *host, const prof_event *records, uint32_t count) {
    self(host).records.insert(self(host).records.end(), records, records + count);
  }
  static prof_string_id intern_string(void *host, const char *text, size_t length) {
    if (text == nullptr) return 0;
    return self(host).catalog.strings.intern(std::string_view(text, length));
  }
  static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
    TrackTable &tracks = self(host).catalog.tracks;
    const prof_track_id id = tracks.declare_distinct(desc);
    if (id == 0) self(host).warnings.push_back("declare_track refused: " + tracks.last_error());
    return id;
  }
  static prof_stack_id intern_stack(void *host, const prof_string_id *frames, uint32_t count) {
    if (frames == nullptr && count > 0) return 0;
    return self(host).catalog.stacks.intern({frames, count});
  }
  static prof_clock_id register_clock_domain(void *host, const char *name, double frequency_hz) {
    if (name == nullptr) return 0;
    return self(host).catalog.clocks.add(name, frequency_hz);
  }
  static void add_calibration(void *host, prof_clock_id clock, uint64_t ticks, uint64_t ns) {
    if (clock == PROF_CLOCK_SESSION) return;
    if (ClockDomain *domain = self(host).catalog.clocks.find(clock))
      domain->add_calibration(ticks, ns);
  }
  static uint64_t now(void *) { return 0; }
  static void log(void *host, prof_log_level level, const char *message) {
    if (message == nullptr) return;
    if (level >= PROF_LOG_ERROR)
      self(host).errors.emplace_back(message);
    else if (level == PROF_LOG_WARN)
      self(host).warnings.emplace_back(message);
  }
  static const char *get_option(void *, const char *) { return nullptr; }
  static const prof_session_info *session_info(void *host) { return &self(host).info; }
  static void count_dropped(void *host, prof_drop_cause cause, uint64_t count) {
    if (static_cast<uint32_t>(cause) < PROF_DROP_CAUSE_COUNT) self(host).lost[cause] += count;
  }
  static void set_facts(void *host, const prof_import_facts *facts) {
    if (facts == nullptr) return;
    ImportSession &s = self(host);
    const auto text = [](const char *t) { return t ? std::string(t) : std::string(); };
    s.has_facts = true;
    s.program = text(facts->program);
    s.format = text(facts->format);
    s.rank = text(facts->rank);
    s.pids.assign(facts->pids, facts->pids ? facts->pids + facts->pid_count : facts->pids);
    s.realtime_anchor = facts->realtime_anchor_ns;
    s.monotonic_anchor = facts->monotonic_anchor_ns;
    s.start = facts->start_ns;
    s.details.clear();
    for (uint32_t i = 0; facts->details && i < facts->detail_count; ++i)
      if (facts->details[2 * i] && facts->details[2 * i + 1])
        s.details.emplace_back(facts->details[2 * i], facts->details[2 * i + 1]);
  }
};

constexpr prof_host_api kEmitApi = host_api_table<ImportSession>();
constexpr prof_import_api kImportApi{sizeof(prof_import_api), &kEmitApi, &ImportSession::set_facts};

/// Keeps the events whose track was declared (counting the others as
/// invalid), in time order, an enclosing slice before what it encloses.
std::vector<prof_event> ordered_events(ImportSession &session) {
  std::vector<prof_event> &records = session.records;
  records.resize(fold_args(records.data(), records.size(), session.catalog.args));
  const auto undeclared = [&](const prof_event &e) {
    return session.catalog.tracks.find(e.track) == nullptr;
  };
  const auto kept = std::remove_if(records.begin(), records.end(), undeclared);
  session.lost[PROF_DROP_INVALID_EVENT] += static_cast<uint64_t>(records.end() - kept);
  records.erase(kept, records.end());
  std::stable_sort(records.begin(), records.end(), [](const prof_event &a, const prof_event &b) {
    return a.ts != b.ts ? a.ts < b.ts : a.duration > b.duration;
  });
  return std::move(records);
}

report::Header header_of(const ImportSession &session, const PluginInfo &importer,
                         const std::string &source, uint64_t start) {
  report::Header header;
  header.session_name = "import";
  const std::string program = session.program.empty() ? importer.name : session.program;
  header.argv = {program};
  header.command_display =
      program + " (imported from " + std::filesystem::path(source).filename().string() + ")";
  header.pids = session.pids;
  const bool wall_clock = session.realtime_anchor != 0;
  // Without a wall clock the capture's start stands in for it (said in
  // the record below): merges align such ranks on their collective
  // operations, else at their starts.
  header.clock_anchor = {wall_clock ? session.realtime_anchor : start,
                         wall_clock ? session.monotonic_anchor : start};
  header.session_start_ns = start;
  header.rank = session.rank;
  report::PluginRecord plugin{importer.name, importer.version, {}};
  if (!session.format.empty()) plugin.options.emplace_back("format", session.format);
  plugin.options.emplace_back("file", source);
  plugin.options.emplace_back(report::kImportClockOption,
                              wall_clock ? "realtime" : report::kImportClockStandIn);
  for (const auto &detail : session.details)
    plugin.options.push_back(detail);
  header.plugins = {plugin};
  return header;
}

} // namespace

std::vector<const PluginInfo *> importers_for(const PluginRegistry &registry, std::string_view path,
                                              std::string_view head) {
  head = head.substr(0, kProbeBytes);
  const std::string name(path);
  std::vector<std::pair<uint32_t, const PluginInfo *>> scored;
  for (const PluginInfo &plugin : registry.plugins()) {
    if (plugin.importer == nullptr) continue;
    const uint32_t score = plugin.importer->probe(
        name.c_str(), reinterpret_cast<const uint8_t *>(head.data()), head.size());
    if (score > 0) scored.emplace_back(std::min<uint32_t>(score, 100), &plugin);
  }
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto &a, const auto &b) { return a.first > b.first; });
  std::vector<const PluginInfo *> best;
  for (const auto &[score, plugin] : scored)
    best.push_back(plugin);
  return best;
}

ImportOutcome import_file(const PluginInfo &importer, const ImportJob &job,
                          const std::string &report_path) {
  ImportSession session;
  session.info.struct_size = sizeof(prof_session_info);
  session.info.session_name = "import";
  session.info.command = "";
  session.info.hostname = "";
  const prof_import_request request{sizeof(prof_import_request),
                                    job.path.c_str(),
                                    reinterpret_cast<const uint8_t *>(job.data.data()),
                                    job.data.size(),
                                    job.rank.value_or(-1),
                                    job.name_rank.value_or(-1)};
  const prof_status status = importer.importer->read(&kImportApi, &session, &request);
  if (status != PROF_OK || !session.errors.empty())
    throw ImportRefused(session.errors.empty() ? "the " + importer.name +
                                                     " importer could not read it (and said "
                                                     "nothing of why)"
                                               : session.errors.front());
  if (!session.has_facts)
    throw ImportRefused("the " + importer.name + " importer gave no facts of the capture");

  std::vector<prof_event> events = ordered_events(session);
  uint64_t start = session.start, end = session.start;
  for (const prof_event &e : events) {
    start = std::min(start, e.ts);
    end = std::max(end, e.ts + e.duration);
  }

  ImportOutcome outcome;
  outcome.events = events.size();
  outcome.wall_clock = session.realtime_anchor != 0;
  outcome.format = session.format;
  outcome.warnings = session.warnings;
  outcome.invalid_events = session.lost[PROF_DROP_INVALID_EVENT];

  report::ReportWriter writer;
  writer.open(report_path, header_of(session, importer, job.path, start), false);
  ReportSink sink(writer);
  sink.catalog_grew(session.catalog, CatalogMark{}, mark_of(session.catalog));
  sink.consume(events.data(), events.size());
  CaptureEnd capture_end;
  capture_end.end_ns = end;
  capture_end.events = events.size();
  for (uint32_t cause = PROF_DROP_DEVICE_BUFFER_FULL; cause < PROF_DROP_CAUSE_COUNT; ++cause)
    if (session.lost[cause] > 0)
      capture_end.drops.push_back(
          {report::cause_ring(static_cast<prof_drop_cause>(cause)), 0, session.lost[cause]});
  sink.finish(session.catalog, capture_end);
  if (!sink.error().empty()) throw report::ReportError(sink.error());
  return outcome;
}

} // namespace prof::core
