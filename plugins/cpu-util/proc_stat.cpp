#include "proc_stat.hpp"

#include "text_fields.hpp"

namespace prof::cpu_util {
namespace {

/// Reads the tick columns after a "cpu"/"cpuN" label. Old kernels print
/// fewer columns; the missing ones stay 0.
bool parse_ticks(std::string_view rest, CpuTicks &ticks) {
  uint64_t *columns[] = {&ticks.user,   &ticks.nice, &ticks.system,  &ticks.idle,
                         &ticks.iowait, &ticks.irq,  &ticks.softirq, &ticks.steal};
  size_t parsed = 0;
  for (uint64_t *column : columns) {
    const std::string_view field = next_field(rest);
    if (field.empty()) break;
    const auto value = to_uint(field);
    if (!value) return false;
    *column = *value;
    ++parsed;
  }
  return parsed >= 4;
}

} // namespace

std::optional<CpuTimes> parse_proc_stat(std::string_view text) {
  CpuTimes times;
  bool have_all = false;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    if (!line.starts_with("cpu")) continue;
    std::string_view rest = line;
    const std::string_view label = next_field(rest);
    CpuTicks ticks;
    if (!parse_ticks(rest, ticks)) continue;
    if (label == "cpu") {
      times.all = ticks;
      have_all = true;
    } else if (const auto index = to_int(label.substr(3)); index && *index >= 0) {
      times.per_cpu.emplace_back(static_cast<int>(*index), ticks);
    }
  }
  if (!have_all) return std::nullopt;
  return times;
}

double cpu_utilization(const CpuTicks &before, const CpuTicks &after) {
  const uint64_t total_before = before.total(), total_after = after.total();
  if (total_after <= total_before) return 0.0;
  const uint64_t busy_before = before.busy(), busy_after = after.busy();
  const uint64_t busy = busy_after > busy_before ? busy_after - busy_before : 0;
  const double percent =
      100.0 * static_cast<double>(busy) / static_cast<double>(total_after - total_before);
  return percent > 100.0 ? 100.0 : percent;
}

} // namespace prof::cpu_util
