// `prof merge --ranks`: which ranks' reports to merge, by list
// ("3,17,56-63") or as the outliers of the whole job ("outliers").
#pragma once

#include <string>
#include <vector>

namespace prof::tool {

struct RankSelection {
  bool outliers = false;  ///< "outliers": chosen by `prof stats --report outliers`
  std::vector<int> ranks; ///< else these, in order, without repeats
};

/// Parses the value of --ranks. Throws cli::UsageError ("merge: --ranks: ...").
RankSelection parse_rank_selection(const std::string &text);

/// The reports among `paths` of `ranks`: by the rank each header names,
/// else (a report without one) by its position, as the merge labels them.
/// Reads the headers only. Throws cli::UsageError naming the first rank
/// no report has, or the first report that cannot be read.
std::vector<std::string> reports_of_ranks(const std::vector<std::string> &paths,
                                          const std::vector<int> &ranks);

} // namespace prof::tool
