#include "tools/prof/reports/report_folder.hpp"

#include "core/report/report_merge.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <string_view>
#include <unistd.h>

namespace fs = std::filesystem;

namespace prof::tool {

namespace {

// Name order with runs of digits compared as numbers: r2 before r10, so that
// reports named by rank merge in rank order.
bool natural_less(const std::string &a, const std::string &b) {
  size_t i = 0, j = 0;
  while (i < a.size() && j < b.size()) {
    if (std::isdigit(static_cast<unsigned char>(a[i])) &&
        std::isdigit(static_cast<unsigned char>(b[j]))) {
      size_t ie = i, je = j;
      while (ie < a.size() && std::isdigit(static_cast<unsigned char>(a[ie])))
        ++ie;
      while (je < b.size() && std::isdigit(static_cast<unsigned char>(b[je])))
        ++je;
      std::string_view x(a.data() + i, ie - i), y(b.data() + j, je - j);
      while (x.size() > 1 && x.front() == '0')
        x.remove_prefix(1);
      while (y.size() > 1 && y.front() == '0')
        y.remove_prefix(1);
      if (x.size() != y.size()) return x.size() < y.size();
      if (x != y) return x < y;
      i = ie;
      j = je;
      continue;
    }
    if (a[i] != b[j]) return a[i] < b[j];
    ++i;
    ++j;
  }
  return a.size() - i < b.size() - j;
}

bool same_file(const fs::path &a, const fs::path &b) {
  std::error_code ec;
  return fs::equivalent(a, b, ec);
}

} // namespace

std::vector<std::string> report_paths(const std::vector<std::string> &inputs,
                                      const std::string &output, const std::string &command) {
  std::vector<std::string> paths;
  for (const std::string &input : inputs) {
    std::error_code ec;
    if (!fs::is_directory(input, ec)) {
      paths.push_back(input);
      continue;
    }
    std::vector<std::string> found;
    for (fs::directory_iterator it(input, ec), end; !ec && it != end; it.increment(ec)) {
      const fs::path &path = it->path();
      if (path.extension() != ".profrep" || !it->is_regular_file(ec)) continue;
      if (same_file(path, output)) continue;
      found.push_back(path.string());
    }
    if (ec)
      throw cli::UsageError(command + ": cannot read folder '" + input + "': " + ec.message());
    if (found.empty())
      throw cli::UsageError(command + ": folder '" + input + "' holds no .profrep reports");
    std::sort(found.begin(), found.end(), natural_less);
    paths.insert(paths.end(), found.begin(), found.end());
  }
  if (paths.empty())
    throw cli::UsageError(command + ": no reports (give .profrep files or folders of them)");
  return paths;
}

std::string merge_folder_to_temporary(const std::string &folder, core::Console &console) {
  const std::string output =
      (fs::temp_directory_path() / ("prof-import-" + std::to_string(::getpid()) + ".profrep"))
          .string();
  report::MergePlan plan;
  try {
    plan = report::plan_merge(report_paths({folder}, output));
  } catch (const report::MergeInputError &e) {
    throw cli::UsageError(std::string("--import-profile: ") + e.what());
  }
  for (const std::string &warning : plan.warnings)
    console.warning(warning);
  report::write_merge(plan, output, true, {});
  return output;
}

} // namespace prof::tool
