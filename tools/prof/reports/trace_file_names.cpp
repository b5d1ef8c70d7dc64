#include "tools/prof/reports/trace_file_names.hpp"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace prof::tool {
namespace {

bool ends_with(const std::string &text, std::string_view tail) {
  return text.size() >= tail.size() &&
         text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

/// The number of up to 9 digits at `at` in `text`, nullopt when none.
std::optional<int64_t> digits_at(const std::string &text, size_t at, bool to_end) {
  size_t end = at;
  while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end])))
    ++end;
  if (end == at || end - at > 9 || (to_end && end != text.size())) return std::nullopt;
  return std::stoll(text.substr(at, end - at));
}

} // namespace

std::string trace_stem(const std::string &path) {
  std::string name = std::filesystem::path(path).filename().string();
  // A compression's extension, then the trace format's own.
  if (ends_with(name, ".gz") && name.size() > 3) name.resize(name.size() - 3);
  for (const std::string_view extension :
       {".json", ".perfetto-trace", ".pftrace", ".perfetto", ".pb"})
    if (ends_with(name, extension) && name.size() > extension.size()) {
      name.resize(name.size() - extension.size());
      break;
    }
  return name;
}

std::string report_name_for_trace(const std::string &path) { return trace_stem(path) + ".profrep"; }

std::optional<int64_t> rank_in_file_name(const std::string &path) {
  std::string stem = trace_stem(path);
  if (ends_with(stem, ".pt.trace")) stem.resize(stem.size() - 9);
  std::string lower = stem;
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  // "rank3", "rank_3", "rank-3" anywhere.
  for (size_t at = lower.find("rank"); at != std::string::npos; at = lower.find("rank", at + 1)) {
    size_t digits = at + 4;
    if (digits < lower.size() && (lower[digits] == '_' || lower[digits] == '-')) ++digits;
    if (const auto rank = digits_at(lower, digits, false)) return rank;
  }
  // "r3", or "..._r3" / "...-r3" / "....r3" at the end.
  if (const size_t at = lower.rfind('r');
      at != std::string::npos &&
      (at == 0 || lower[at - 1] == '_' || lower[at - 1] == '-' || lower[at - 1] == '.'))
    if (const auto rank = digits_at(lower, at + 1, true)) return rank;
  // "trace_3", "worker-3" at the end.
  const size_t separator = lower.find_last_of("_-");
  if (separator != std::string::npos)
    if (const auto rank = digits_at(lower, separator + 1, true)) return rank;
  return std::nullopt;
}

} // namespace prof::tool
