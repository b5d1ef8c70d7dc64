#include "proc_pid.hpp"

#include "text_fields.hpp"

namespace prof::cpu_util {

std::optional<ProcessStat> parse_pid_stat(std::string_view text) {
  const size_t open = text.find('(');
  const size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    return std::nullopt;
  ProcessStat stat;
  std::string_view head = text.substr(0, open);
  const auto pid = to_int(next_field(head));
  if (!pid) return std::nullopt;
  stat.pid = static_cast<int>(*pid);
  stat.comm = std::string(text.substr(open + 1, close - open - 1));

  // Fields after the command name, numbered as in proc(5): state is field 3.
  std::string_view rest = text.substr(close + 1);
  const std::string_view state = next_field(rest);
  if (state.size() != 1) return std::nullopt;
  stat.state = state[0];
  int64_t fields[25] = {}; // by field number; one that is not an integer reads 0
  for (int field = 4; field <= 24; ++field) {
    const std::string_view text_field = next_field(rest);
    if (text_field.empty()) return std::nullopt;
    if (const auto value = to_int(text_field)) fields[field] = *value;
  }
  const auto ticks = [&](int field) {
    return fields[field] < 0 ? uint64_t{0} : static_cast<uint64_t>(fields[field]);
  };
  stat.ppid = static_cast<int>(fields[4]);
  stat.utime = ticks(14);
  stat.stime = ticks(15);
  stat.cutime = ticks(16);
  stat.cstime = ticks(17);
  stat.start_time = ticks(22);
  stat.rss_pages = ticks(24);
  return stat;
}

ProcessMemory parse_pid_status(std::string_view text) {
  ProcessMemory memory;
  LineReader lines(text);
  std::string_view line;
  while (lines.next(line)) {
    const bool rss = line.starts_with("VmRSS:");
    const bool hwm = line.starts_with("VmHWM:");
    if (!rss && !hwm) continue;
    std::string_view rest = line.substr(6);
    const auto kib = to_uint(next_field(rest));
    if (!kib) continue;
    (rss ? memory.rss_bytes : memory.hwm_bytes) = *kib * 1024;
  }
  return memory;
}

} // namespace prof::cpu_util
