#include "proc_net_dev_reader.hpp"

namespace prof::nic {
namespace {

std::string_view next_field(std::string_view &rest) {
  size_t start = 0;
  while (start < rest.size() && (rest[start] == ' ' || rest[start] == '\t'))
    ++start;
  size_t end = start;
  while (end < rest.size() && rest[end] != ' ' && rest[end] != '\t')
    ++end;
  const std::string_view field = rest.substr(start, end - start);
  rest.remove_prefix(end);
  return field;
}

/// Column of each counter among the 16 numbers of a line.
constexpr size_t kRxBytesColumn = 0, kRxPacketsColumn = 1, kTxBytesColumn = 8, kTxPacketsColumn = 9,
                 kColumns = 16;

} // namespace

void parse_proc_net_dev(std::string_view text, std::vector<ProcNetDevLine> &out) {
  out.clear();
  while (!text.empty()) {
    const size_t newline = text.find('\n');
    std::string_view line = text.substr(0, newline);
    text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
    // "  eth0: 123 4 ..." (the two header lines have '|' and no number list).
    const size_t colon = line.rfind(':');
    if (colon == std::string_view::npos || line.find('|') != std::string_view::npos) continue;
    std::string_view name = line.substr(0, colon);
    while (!name.empty() && name.front() == ' ')
      name.remove_prefix(1);
    if (name.empty()) continue;
    std::string_view rest = line.substr(colon + 1);
    uint64_t values[kColumns];
    size_t count = 0;
    for (; count < kColumns; ++count) {
      const auto value = parse_counter(next_field(rest));
      if (!value) break;
      values[count] = *value;
    }
    if (count <= kTxPacketsColumn) continue;
    ProcNetDevLine parsed{name, {}};
    parsed.counters[kRxBytes] = values[kRxBytesColumn];
    parsed.counters[kRxPackets] = values[kRxPacketsColumn];
    parsed.counters[kTxBytes] = values[kTxBytesColumn];
    parsed.counters[kTxPackets] = values[kTxPacketsColumn];
    out.push_back(parsed);
  }
}

ProcNetDevReader::ProcNetDevReader(const std::string &path, std::string class_net_dir,
                                   const DeviceFilter &filter)
    : file_(FileHandle::open_read(path)), class_net_dir_(std::move(class_net_dir)),
      filter_(filter) {}

void ProcNetDevReader::read(std::vector<DeviceReading> &out) {
  if (!file_.valid() || !pread_all(file_.fd(), text_)) {
    lines_.clear();
    return;
  }
  parse_proc_net_dev(text_, lines_);
  for (const ProcNetDevLine &line : lines_) {
    auto found = kept_.find(line.name);
    if (found == kept_.end()) {
      const bool keep = filter_.keeps(line.name, is_loopback_netdev(class_net_dir_, line.name));
      found = kept_.emplace(std::string(line.name), keep).first;
    }
    if (found->second) out.push_back(DeviceReading{found->first, line.counters, 1});
  }
}

std::vector<std::string> ProcNetDevReader::all_names() const {
  std::vector<std::string> names;
  for (const ProcNetDevLine &line : lines_)
    names.emplace_back(line.name);
  return names;
}

} // namespace prof::nic
