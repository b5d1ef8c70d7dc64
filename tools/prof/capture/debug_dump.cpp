#include "tools/prof/capture/debug_dump.hpp"

#include "tools/prof/capture/debug_dump_text.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace prof::tool {
namespace {

namespace fs = std::filesystem;

// "" or why `folder` cannot take the dump's files.
std::string folder_problem(const std::string &folder) {
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return ec.message();
  if (!fs::is_directory(folder, ec)) return "not a folder";
  if (access(folder.c_str(), W_OK | X_OK) != 0) return std::strerror(errno);
  return "";
}

void write_file(const fs::path &path, const std::string &text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

// The folder --debug-dump names, "" when not given.
std::string folder_of(const cli::CommandLine &command) {
  const std::string *folder = command.value("debug-dump");
  if (!folder) return "";
  return folder->empty() ? "prof-debug-" + std::to_string(getpid()) : *folder;
}

} // namespace

DebugDump::DebugDump(const RunContext &context)
    : context_(context), folder_(folder_of(context.command)) {
  if (folder_.empty()) return;
  if (const std::string problem = folder_problem(folder_); !problem.empty())
    throw cli::UsageError("--debug-dump: cannot write to folder '" + folder_ + "': " + problem);
}

void DebugDump::write(const core::WindowReports &reports) const {
  if (folder_.empty()) return;
  try {
    const fs::path folder(folder_);
    write_file(folder / "configuration.txt", configuration_text(context_.command));
    write_file(folder / "plugins.txt", plugins_text(context_.registry, reports.header()));
    write_file(folder / "environment.txt", environment_text(environment_facts()));
    write_file(folder / "chunks.txt", chunks_text(reports.opened()));
    context_.console.line("debug dump written to " + fs::absolute(folder).string());
  } catch (const std::exception &e) {
    context_.console.warning("the debug dump in '" + folder_ + "' is incomplete: " + e.what());
  }
}

} // namespace prof::tool
