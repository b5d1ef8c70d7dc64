#include <prof/stats/function_view.hpp>

#include <prof/stats/summary_tables.hpp>
#include <prof/stats/text_table.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <set>

namespace prof::stats {

namespace {

struct Counts {
  uint64_t self = 0;
  uint64_t total = 0;
};

struct TreeNode {
  uint64_t total = 0;
  uint64_t self = 0;
  std::map<std::string, std::unique_ptr<TreeNode>> children;
};

// Depth-first, children by samples; lines indented two spaces a level.
void print_node(const std::string &name, const TreeNode &node, size_t depth, uint64_t samples,
                uint64_t min_samples, bool with_self, std::vector<std::vector<std::string>> &rows) {
  std::vector<std::string> row{format_percent(node.total, samples)};
  if (with_self) row.push_back(format_percent(node.self, samples));
  row.push_back(std::string(depth * 2, ' ') + name);
  rows.push_back(std::move(row));
  std::vector<std::pair<const std::string *, const TreeNode *>> children;
  for (const auto &[child, sub] : node.children)
    if (sub->total >= min_samples) children.emplace_back(&child, sub.get());
  std::stable_sort(children.begin(), children.end(),
                   [](const auto &a, const auto &b) { return a.second->total > b.second->total; });
  for (const auto &[child, sub] : children)
    print_node(*child, *sub, depth + 1, samples, min_samples, with_self, rows);
}

} // namespace

std::vector<FunctionView::FunctionRow> FunctionView::flat_rows(const StackResolver &resolve,
                                                               size_t rows) const {
  std::map<std::string, Counts> functions;
  for (const auto &[stack, count] : samples_by_stack_) {
    const std::vector<std::string> frames = resolve(stack);
    if (frames.empty()) continue;
    functions[frames.front()].self += count;
    std::set<std::string_view> seen; // recursion counts once per sample
    for (const std::string &frame : frames)
      if (seen.insert(frame).second) functions[frame].total += count;
  }
  std::vector<FunctionRow> sorted;
  sorted.reserve(functions.size());
  for (const auto &[name, c] : functions)
    sorted.push_back({name, c.self, c.total});
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) {
    return a.self != b.self ? a.self > b.self : a.total > b.total;
  });
  if (sorted.size() > rows) sorted.resize(rows);
  return sorted;
}

std::vector<std::string> FunctionView::flat_table(const StackResolver &resolve, size_t rows) const {
  TextTable table({{"Self(%)", Align::Right},
                   {"Self", Align::Right},
                   {"Total(%)", Align::Right},
                   {"Total", Align::Right},
                   {"Function", Align::Left}});
  std::vector<std::vector<std::string>> cells;
  for (const FunctionRow &c : flat_rows(resolve, rows)) {
    cells.push_back({format_percent(c.self, samples_), std::to_string(c.self),
                     format_percent(c.total, samples_), std::to_string(c.total), c.name});
    table.fit_row(cells.back());
  }
  std::vector<std::string> lines{table.header()};
  for (const auto &row : cells)
    lines.push_back(table.row(row));
  return lines;
}

std::vector<std::string> FunctionView::call_tree(const StackResolver &resolve, bool top_down,
                                                 double min_percent) const {
  TreeNode root;
  for (const auto &[stack, count] : samples_by_stack_) {
    std::vector<std::string> frames = resolve(stack); // leaf first
    if (frames.empty()) continue;
    if (top_down) std::reverse(frames.begin(), frames.end());
    TreeNode *node = &root;
    for (const std::string &frame : frames) {
      auto &child = node->children[frame];
      if (!child) child = std::make_unique<TreeNode>();
      node = child.get();
      node->total += count;
    }
    node->self += count;
  }
  const auto min_samples =
      static_cast<uint64_t>(min_percent / 100.0 * static_cast<double>(samples_) + 0.5);
  std::vector<std::vector<std::string>> rows;
  std::vector<std::pair<const std::string *, const TreeNode *>> tops;
  for (const auto &[name, node] : root.children)
    if (node->total >= std::max<uint64_t>(min_samples, 1)) tops.emplace_back(&name, node.get());
  std::stable_sort(tops.begin(), tops.end(),
                   [](const auto &a, const auto &b) { return a.second->total > b.second->total; });
  for (const auto &[name, node] : tops)
    print_node(*name, *node, 0, samples_, std::max<uint64_t>(min_samples, 1), top_down, rows);
  std::vector<TextColumn> columns{{"Total(%)", Align::Right}};
  if (top_down) columns.push_back({"Self(%)", Align::Right});
  columns.push_back({"Function", Align::Left});
  TextTable table(std::move(columns));
  for (const auto &row : rows)
    table.fit_row(row);
  std::vector<std::string> lines{table.header()};
  for (const auto &row : rows)
    lines.push_back(table.row(row));
  return lines;
}

} // namespace prof::stats
