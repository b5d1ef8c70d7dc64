#include "tools/prof/stats/summary_store.hpp"

#include "tools/prof/stats/parallel_reduce_module.hpp"
#include <prof/stats/aggregator_wire.hpp>

#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>

namespace fs = std::filesystem;

namespace prof::tool {
namespace {

/// The report's size and modification time; nullopt when it cannot be stat'ed.
std::optional<std::pair<uint64_t, int64_t>> report_identity(const std::string &path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return std::nullopt;
  return std::pair<uint64_t, int64_t>{static_cast<uint64_t>(st.st_size),
                                      int64_t{st.st_mtim.tv_sec} * 1'000'000'000 +
                                          st.st_mtim.tv_nsec};
}

std::string cache_folder() {
  if (const char *xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg)
    return (fs::path(xdg) / "prof" / "summaries").string();
  const char *home = std::getenv("HOME");
  return (fs::path(home && *home ? home : fs::temp_directory_path().string()) / ".cache" / "prof" /
          "summaries")
      .string();
}

enum class Found { fresh, missing, stale, damaged };

/// Whether `bytes` are AggregatorWire bytes of this prof's version (their
/// magic): a summary made by another prof is made again.
bool current_wire(const std::vector<uint8_t> &bytes) {
  static const std::vector<uint8_t> magic = [] {
    stats::StatsAggregator empty(ExportHost(nullptr, nullptr), stats::StatsScope{});
    std::vector<uint8_t> saved = stats::AggregatorWire::save(empty);
    saved.resize(std::min<size_t>(saved.size(), 4));
    return saved;
  }();
  return bytes.size() >= magic.size() && std::equal(magic.begin(), magic.end(), bytes.begin());
}

/// The summary file at `path` if it is one of the report as it is now.
Found read_summary(const std::string &path, const std::pair<uint64_t, int64_t> &report,
                   RankSummary &summary) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return Found::missing;
  std::vector<uint8_t> bytes(static_cast<size_t>(std::max<std::streamoff>(0, in.tellg())));
  in.seekg(0);
  if (!in.read(reinterpret_cast<char *>(bytes.data()), static_cast<std::streamsize>(bytes.size())))
    return Found::damaged;
  if (!decode_summary(bytes, summary)) return Found::damaged;
  if (summary.report_size != report.first || summary.report_mtime_ns != report.second ||
      !current_wire(summary.aggregator))
    return Found::stale;
  return Found::fresh;
}

/// Writes `bytes` to `path` whole or not at all; false when it cannot.
bool write_whole(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::error_code ec;
  fs::create_directories(fs::path(path).parent_path(), ec);
  const std::string temporary = path + "." + std::to_string(::getpid()) + ".tmp";
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char *>(bytes.data()),
              static_cast<std::streamsize>(bytes.size()));
    if (!out.flush()) {
      fs::remove(temporary, ec);
      return false;
    }
  }
  fs::rename(temporary, path, ec);
  if (ec) fs::remove(temporary, ec);
  return !ec;
}

/// The summary of `report`, and what to warn about (for a caller on
/// another thread than the console's).
RankSummary summary_with_warnings(const std::string &report, size_t threads,
                                  std::vector<std::string> &warnings) {
  const auto identity = report_identity(report);
  const std::string path = summary_path(report);
  RankSummary summary;
  if (identity) {
    const Found found = read_summary(path, *identity, summary);
    if (found == Found::fresh) {
      summary.facts.path = report;
      return summary;
    }
    if (found == Found::damaged)
      warnings.push_back("stats: summary '" + path + "' is damaged: made again from '" + report +
                         "'");
  }
  summary = make_summary(report, identity ? identity->first : 0, identity ? identity->second : 0,
                         threads);
  if (identity && !write_whole(path, encode_summary(summary)))
    warnings.push_back("stats: cannot write summary '" + path + "': it is made again on every run");
  return summary;
}

/// The parallel making of summaries: each body makes those of its ranges.
struct MakeBody {
  const std::vector<std::string> &reports;
  size_t first;
  std::vector<RankSummary> &made; ///< [i - first]: each body writes its own
  std::mutex &mutex;
  std::vector<std::string> &warnings;
  std::optional<std::pair<size_t, std::exception_ptr>> &failure; // the first, by report order

  void run(size_t begin, size_t end) {
    for (size_t i = begin; i != end; ++i) {
      std::vector<std::string> lines;
      std::exception_ptr error;
      try {
        made[i - first] = summary_with_warnings(reports[i], 1, lines);
      } catch (...) {
        error = std::current_exception();
      }
      const std::lock_guard lock(mutex);
      warnings.insert(warnings.end(), lines.begin(), lines.end());
      if (error && (!failure || i < failure->first)) failure.emplace(i, error);
    }
  }
};

constexpr prof_reduce_body_ops kMakeOps{
    [](void *body) -> void * { return new MakeBody(*static_cast<MakeBody *>(body)); },
    [](void *body, size_t begin, size_t end) { static_cast<MakeBody *>(body)->run(begin, end); },
    [](void *, void *) {},
    [](void *body) { delete static_cast<MakeBody *>(body); },
};

} // namespace

std::string summary_path(const std::string &report_path) {
  const fs::path report(report_path);
  const fs::path folder = report.has_parent_path() ? report.parent_path() : fs::path(".");
  if (::access(folder.c_str(), W_OK) == 0) return report_path + ".summary";
  std::error_code ec;
  const fs::path absolute = fs::weakly_canonical(report, ec);
  char name[32];
  std::snprintf(name, sizeof name, "%016zx",
                std::hash<std::string>{}(ec ? report_path : absolute.string()));
  return (fs::path(cache_folder()) /
          (std::string(name) + "-" + report.filename().string() + ".summary"))
      .string();
}

RankSummary summary_of(const std::string &report_path, core::Console *console, size_t threads) {
  std::vector<std::string> warnings;
  RankSummary summary = summary_with_warnings(report_path, threads, warnings);
  if (console)
    for (const std::string &line : warnings)
      console->warning(line);
  return summary;
}

std::vector<RankSummary> make_summaries(const std::vector<std::string> &reports, size_t first,
                                        size_t last, core::Console *console) {
  std::vector<RankSummary> made(last > first ? last - first : 0);
  std::mutex mutex;
  std::vector<std::string> warnings;
  std::optional<std::pair<size_t, std::exception_ptr>> failure;
  MakeBody body{reports, first, made, mutex, warnings, failure};
  if (first < last) parallel_reduce_function()(&body, &kMakeOps, first, last, 1, 0);
  if (console)
    for (const std::string &line : warnings)
      console->warning(line);
  if (failure) std::rethrow_exception(failure->second);
  return made;
}

} // namespace prof::tool
