#include "tools/prof/reports/rank_selection.hpp"

#include "core/report/report_reader.hpp"
#include "tools/prof/cli/usage_error.hpp"

#include <algorithm>
#include <charconv>
#include <map>

namespace prof::tool {
namespace {

constexpr int kMaxRank = 1 << 24;

cli::UsageError bad_ranks(const std::string &text, const std::string &why) {
  return cli::UsageError("merge: --ranks '" + text + "': " + why +
                         " (expected \"outliers\" or ranks such as 3,17,56-63)");
}

int rank_number(const std::string &text, std::string_view word) {
  int value = -1;
  const auto [end, error] = std::from_chars(word.data(), word.data() + word.size(), value);
  if (word.empty() || error != std::errc() || end != word.data() + word.size() || value < 0 ||
      value > kMaxRank)
    throw bad_ranks(text, "'" + std::string(word) + "' is no rank");
  return value;
}

} // namespace

RankSelection parse_rank_selection(const std::string &text) {
  RankSelection selection;
  if (text == "outliers") {
    selection.outliers = true;
    return selection;
  }
  std::string_view rest = text;
  while (true) {
    const size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    const size_t dash = item.find('-');
    const int first = rank_number(text, item.substr(0, dash));
    const int last =
        dash == std::string_view::npos ? first : rank_number(text, item.substr(dash + 1));
    if (last < first) throw bad_ranks(text, "'" + std::string(item) + "' runs backwards");
    for (int rank = first; rank <= last; ++rank)
      if (std::find(selection.ranks.begin(), selection.ranks.end(), rank) == selection.ranks.end())
        selection.ranks.push_back(rank);
    if (comma == std::string_view::npos) break;
    rest = rest.substr(comma + 1);
  }
  return selection;
}

std::vector<std::string> reports_of_ranks(const std::vector<std::string> &paths,
                                          const std::vector<int> &ranks) {
  std::map<int, std::vector<std::string>> by_rank;
  for (size_t i = 0; i < paths.size(); ++i) {
    report::ReportReader reader;
    if (!reader.open(paths[i]))
      throw cli::UsageError("merge: " + (reader.problems().empty()
                                             ? "cannot read report '" + paths[i] + "'"
                                             : reader.problems().back()));
    const std::string &rank = reader.header().rank;
    int number = static_cast<int>(i);
    if (!rank.empty()) {
      const auto [end, error] = std::from_chars(rank.data(), rank.data() + rank.size(), number);
      if (error != std::errc() || end != rank.data() + rank.size()) number = -1;
    }
    if (number >= 0) by_rank[number].push_back(paths[i]);
  }
  std::vector<std::string> chosen;
  for (const int rank : ranks) {
    const auto found = by_rank.find(rank);
    if (found == by_rank.end())
      throw cli::UsageError("merge: --ranks: no report of rank " + std::to_string(rank) +
                            " among the " + std::to_string(paths.size()) + " given");
    chosen.insert(chosen.end(), found->second.begin(), found->second.end());
  }
  return chosen;
}

} // namespace prof::tool
