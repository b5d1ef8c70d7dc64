#include <prof/stats/run_diff_table.hpp>

#include <prof/stats/time_format.hpp>

#include <cmath>
#include <cstdio>

namespace prof::stats {
namespace {

/// A number the row does not have: "-" on the console, null in JSON.
Cell no_number() { return Cell::of_real(std::nan(""), "-"); }

/// "+12.34%", "-5.00%"; "new" and "gone" have no change.
Cell change_cell(const DiffRow &row) {
  if (row.verdict == Verdict::New || row.verdict == Verdict::Gone) return no_number();
  if (!std::isfinite(row.change)) return Cell::of_real(row.change, "+inf");
  const double percent = std::round(row.change * 10000) / 100;
  char text[32];
  std::snprintf(text, sizeof text, "%+.2f%%", percent);
  return Cell::of_real(percent, text);
}

Cell sure_cell(const DiffRow &row) {
  if (row.sure < 0) return no_number();
  const double percent = std::round(row.sure * 1000) / 10;
  char text[16];
  std::snprintf(text, sizeof text, "%.1f%%", percent);
  return Cell::of_real(percent, text);
}

Cell ns_cell(double ns, bool present) {
  if (!present) return no_number();
  return Cell::of_ns(static_cast<uint64_t>(std::llround(std::max(0.0, ns))));
}

Cell calls_cell(double calls, bool present) {
  if (!present) return no_number();
  char text[32];
  std::snprintf(text, sizeof text, "%g", calls);
  return Cell::of_real(calls, text);
}

/// "renamed from OLD", and "calls 1 -> 2" when the median calls per sample changed.
std::string note_of(const DiffRow &row) {
  std::string note = row.renamed_from.empty() ? "" : "renamed from " + row.renamed_from;
  const bool both = row.verdict != Verdict::New && row.verdict != Verdict::Gone;
  if (both && row.base.calls != row.next.calls)
    note += (note.empty() ? "calls " : "; calls ") + calls_cell(row.base.calls, true).text +
            " -> " + calls_cell(row.next.calls, true).text;
  return note;
}

} // namespace

std::string verdict_line(const RunDiff &diff) {
  size_t count[5] = {};
  const DiffRow *largest = nullptr;
  for (const DiffRow &row : diff.rows) {
    ++count[static_cast<int>(row.verdict)];
    if (row.verdict == Verdict::Slower && largest == nullptr) largest = &row; // rows: largest first
  }
  std::string line = largest != nullptr ? "verdict: regression: " : "verdict: no item slower: ";
  line += std::to_string(count[0]) + " slower";
  if (largest != nullptr)
    line += " (largest: " + largest->key.kind + " " + largest->key.name + " " +
            change_cell(*largest).text + ")";
  line += ", " + std::to_string(count[1]) + " faster, " + std::to_string(count[2]) + " new, " +
          std::to_string(count[3]) + " gone, " + std::to_string(count[4]) + " same";
  return line;
}

StatsTable diff_table(const RunDiff &diff, const DiffOptions &options, const std::string &base,
                      const std::string &next) {
  StatsTable table;
  table.report = "diff";
  table.columns = {{"Verdict", "Verdict", Align::Left},
                   {"Change", "Change(%)", Align::Right},
                   {"Sure", "Sure(%)", Align::Right},
                   {"Kind", "Kind", Align::Left},
                   {"Base", "Base median(ns)", Align::Right},
                   {"Base p90", "Base p90(ns)", Align::Right},
                   {"New", "New median(ns)", Align::Right},
                   {"New p90", "New p90(ns)", Align::Right},
                   {"Noise", "Noise(ns)", Align::Right},
                   {"Base calls", "Base calls", Align::Right},
                   {"New calls", "New calls", Align::Right},
                   {"Base/call", "Base per call(ns)", Align::Right},
                   {"New/call", "New per call(ns)", Align::Right},
                   {"Name", "Name", Align::Left},
                   {"Note", "Note", Align::Left}};
  const std::string unit =
      diff.by_step ? "per step, on the " + std::to_string(diff.steps.size()) + " steps both ran"
                   : "per rank, whole runs (no steps in common)";
  Section section{"", "======== prof diff: " + next + " against " + base + " (" + unit + "):", {}};
  for (const DiffRow &row : diff.rows) {
    const bool in_base = row.verdict != Verdict::New, in_next = row.verdict != Verdict::Gone;
    section.rows.push_back(
        {Cell::of_text(verdict_name(row.verdict)), change_cell(row), sure_cell(row),
         Cell::of_text(row.key.kind), ns_cell(row.base.median, in_base),
         ns_cell(row.base.p90, in_base), ns_cell(row.next.median, in_next),
         ns_cell(row.next.p90, in_next), ns_cell(row.noise, in_base && in_next),
         calls_cell(row.base.calls, in_base), calls_cell(row.next.calls, in_next),
         ns_cell(row.base.per_call(), in_base), ns_cell(row.next.per_call(), in_next),
         Cell::of_text(row.key.name), Cell::of_text(note_of(row))});
  }
  table.sections.push_back(std::move(section));
  table.empty_text = "======== prof diff: no items in common";
  char rule[256];
  std::snprintf(rule, sizeof rule,
                "slower/faster: the median time per sample changed by at least %g%% and %s, "
                "and by more than Noise (%g x the pooled median absolute deviation); Sure: the "
                "share of sample pairs ordered so",
                options.threshold * 100, format_duration(options.min_change_ns).c_str(),
                options.noise_factor);
  table.notes = {"Base, New: median time " + unit +
                     "; p90: 90th percentile; calls: median "
                     "calls per sample; /call: total time / calls",
                 rule, verdict_line(diff)};
  return table;
}

} // namespace prof::stats
