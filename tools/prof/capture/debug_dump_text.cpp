#include "tools/prof/capture/debug_dump_text.hpp"

#include "core/plugin_host/session_details.hpp"
#include "core/report/chunk.hpp"
#include "core/report/chunk_scanner.hpp"
#include "core/report/mapped_file.hpp"
#include "core/report/report_reader.hpp"
#include "tools/prof/capture/app_launcher.hpp"
#include "tools/prof/capture/plugin_listing.hpp"
#include "tools/prof/capture/process_facts.hpp"
#include "tools/prof/cli/help_text.hpp"
#include "tools/prof/cli/option_table.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <map>
#include <sys/utsname.h>
#include <unistd.h>

namespace prof::tool {
namespace {

std::string from(const std::string &origin) {
  return origin.empty() ? "" : "  (from " + origin + ")";
}

std::string option_text(const cli::GivenOption &option) {
  const cli::OptionSpec *spec = cli::find_option(option.name);
  const bool bare = spec && (spec->kind == cli::ValueKind::Optional ? option.value.empty()
                                                                    : !cli::takes_value(*spec));
  return "--" + option.name + (bare ? "" : "=" + option.value) + from(option.origin);
}

std::string plugin_spec_text(const cli::PluginSpec &spec) {
  std::string text = "--plugin \"" + spec.name;
  for (const auto &[key, value] : spec.options)
    text += " " + key + "=" + value;
  return text + "\"" + from(spec.origin);
}

std::string formatted(const char *format, auto... values) {
  char line[256];
  std::snprintf(line, sizeof line, format, values...);
  return line;
}

struct TypeTotal {
  uint64_t chunks = 0, bytes = 0, events = 0;
};

std::string report_chunks_text(const std::string &path) {
  report::ReportReader reader;
  // Events are counted per chunk, not decoded: a dump of a huge report stays cheap.
  reader.open(path, report::ReadOptions{false});
  if (reader.is_error())
    return "Report " + path +
           ": cannot be read: " + (reader.problems().empty() ? "" : reader.problems().back()) +
           "\n";
  std::string text = "Report " + path + ": " + std::to_string(reader.file_size()) + " bytes, " +
                     (reader.complete() ? "complete" : "incomplete") + "\n";
  text += "  records: " + std::to_string(reader.strings().size() - 1) + " strings, " +
          std::to_string(reader.tracks().size()) + " tracks, " +
          std::to_string(reader.stacks().size()) + " stacks, " +
          std::to_string(reader.args().size()) + " argument sets, " +
          std::to_string(reader.clock_domains().size()) + " clock domains, " +
          std::to_string(reader.drops().size()) + " drop records\n";
  text += "  events: " + std::to_string(reader.event_count()) + " (" +
          std::to_string(reader.total_dropped()) +
          " dropped); end chunk: " + (reader.footer() ? "present" : "missing") + "\n";
  for (const std::string &problem : reader.problems())
    text += "  problem: " + problem + "\n";

  std::map<uint64_t, uint32_t> events_at; // payload offset -> events
  for (const auto &chunk : reader.event_chunks())
    events_at[chunk.payload_offset] = chunk.events;
  report::MappedFile file;
  if (const int error = file.open(path); error != 0)
    return text + "  chunks: cannot be read: " + std::strerror(error) + "\n";
  std::map<uint16_t, TypeTotal> totals;
  std::string rows;
  report::ChunkScanner scanner(file.bytes());
  while (const auto chunk = scanner.next()) {
    const auto events = events_at.find(chunk->offset + report::kChunkHeaderSize);
    const uint32_t count = events == events_at.end() ? 0 : events->second;
    TypeTotal &total = totals[chunk->type];
    total.chunks += 1;
    total.bytes += chunk->payload.size();
    total.events += count;
    rows += formatted("    %12llu  %-8s  0x%04x  %10zu", (unsigned long long)chunk->offset,
                      std::string(report::chunk_type_name(chunk->type)).c_str(),
                      unsigned{chunk->flags}, chunk->payload.size());
    rows += (events == events_at.end() ? "" : formatted("  %8u", count)) + "\n";
  }
  text += "  by type:\n" +
          formatted("    %-8s  %8s  %14s  %10s\n", "TYPE", "CHUNKS", "PAYLOAD", "EVENTS");
  for (const auto &[type, total] : totals)
    text += formatted("    %-8s  %8llu  %14llu  %10llu\n",
                      std::string(report::chunk_type_name(type)).c_str(),
                      (unsigned long long)total.chunks, (unsigned long long)total.bytes,
                      (unsigned long long)total.events);
  text += "  chunks:\n" +
          formatted("    %12s  %-8s  %-6s  %10s  %8s\n", "OFFSET", "TYPE", "FLAGS", "PAYLOAD",
                    "EVENTS") +
          rows;
  for (const auto &damaged : scanner.damaged())
    text += formatted("  damaged chunk at offset %llu: ", (unsigned long long)damaged.offset) +
            std::string(damaged.reason) + "\n";
  if (scanner.cut()) text += "  the file is cut inside its last chunk\n";
  return text;
}

} // namespace

EnvironmentFacts environment_facts() {
  EnvironmentFacts facts;
  facts.prof_version = cli::version_text();
  if (utsname name{}; uname(&name) == 0)
    facts.kernel =
        std::string(name.sysname) + " " + name.release + " " + name.version + " " + name.machine;
  facts.host = host_name();
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  char when[32] = "";
  if (gmtime_r(&now, &utc)) std::strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &utc);
  facts.time_utc = when;
  facts.prof_pid = static_cast<int>(getpid());
  std::error_code ec;
  facts.working_folder = std::filesystem::current_path(ec).string();
  if (const char *path = std::getenv("PROF_PLUGIN_PATH")) facts.plugin_path = path;
  return facts;
}

std::string configuration_text(const cli::CommandLine &command) {
  std::string text =
      "subcommand: " + command.subcommand + (command.subcommand_given ? "" : " (implied)") + "\n";
  text += "command: " + (command.has_app() ? AppLauncher::display(command.app) : "(none)") + "\n";
  text += "options, after capture profiles are merged:\n";
  for (const cli::GivenOption &option : command.options)
    text += "  " + option_text(option) + "\n";
  for (const cli::PluginSpec &spec : command.plugins)
    text += "  " + plugin_spec_text(spec) + "\n";
  for (const std::string &path : command.plugin_paths)
    text += "  --plugin-path=" + path + "\n";
  return text;
}

std::string plugins_text(const core::PluginRegistry &registry, const report::Header &header) {
  return plugin_list_text(registry) + "\nIn this capture, with the options they ran with:\n" +
         core::plugin_records_text(header);
}

std::string environment_text(const EnvironmentFacts &facts) {
  return "prof: " + facts.prof_version + "\n" + "kernel: " + facts.kernel + "\n" +
         "host: " + facts.host + "\n" + "time: " + facts.time_utc + "\n" +
         "prof pid: " + std::to_string(facts.prof_pid) + "\n" +
         "working folder: " + facts.working_folder + "\n" +
         "PROF_PLUGIN_PATH: " + (facts.plugin_path.empty() ? "(unset)" : facts.plugin_path) + "\n";
}

std::string chunks_text(const std::vector<std::string> &reports) {
  if (reports.empty())
    return "No report file was written by this capture (prof writes one with -o NAME or "
           "--export-profile FILE).\n";
  std::string text;
  for (const std::string &path : reports)
    text += (text.empty() ? "" : "\n") + report_chunks_text(path);
  return text;
}

} // namespace prof::tool
