// Column layout for console tables: widths grow to fit the widest cell and
// columns are separated by two spaces. Shared by the summary and trace
// exporters; rows are formatted one at a time so long traces need not be
// held as text.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <vector>

namespace prof::stats {

enum class Align { Left, Right };

/// One column of a TextTable: its header text, its alignment and its current width.
struct TextColumn {
  std::string header;
  Align align = Align::Right;
  size_t width = 0;
};

/// A set of columns whose widths fit every cell passed to fit().
class TextTable {
public:
  explicit TextTable(std::vector<TextColumn> columns) : columns_(std::move(columns)) {
    for (TextColumn &column : columns_)
      column.width = std::max(column.width, column.header.size());
  }

  /// Widens column `index` so that `cell` fits.
  void fit(size_t index, std::string_view cell) {
    columns_[index].width = std::max(columns_[index].width, cell.size());
  }
  /// Widens every column to fit the cells of `row`.
  void fit_row(const std::vector<std::string> &row) {
    for (size_t i = 0; i < row.size() && i < columns_.size(); ++i)
      fit(i, row[i]);
  }

  std::string header() const {
    std::vector<std::string_view> cells;
    for (const TextColumn &column : columns_)
      cells.emplace_back(column.header);
    return format(cells);
  }
  std::string row(const std::vector<std::string> &cells) const {
    return format(std::vector<std::string_view>(cells.begin(), cells.end()));
  }
  /// Formats one line, without trailing spaces.
  std::string format(const std::vector<std::string_view> &cells) const {
    std::string line;
    for (size_t i = 0; i < columns_.size(); ++i) {
      const std::string_view cell = i < cells.size() ? cells[i] : std::string_view();
      const size_t pad = columns_[i].width > cell.size() ? columns_[i].width - cell.size() : 0;
      const bool last = i + 1 == columns_.size();
      if (i > 0) line += "  ";
      if (columns_[i].align == Align::Right) line.append(pad, ' ');
      line += cell;
      if (columns_[i].align == Align::Left && !last) line.append(pad, ' ');
    }
    while (!line.empty() && line.back() == ' ')
      line.pop_back();
    return line;
  }

private:
  std::vector<TextColumn> columns_;
};

} // namespace prof::stats
