#include "sip_efficiency.hpp"

#include <prof/correlation.hpp>
#include <prof/stats/text_table.hpp>
#include <prof/stats/time_format.hpp>

#include <algorithm>
#include <cstdio>

namespace prof::gcu {
namespace {

// The index of the nearest enclosing track of `kind` at or above `desc`, -1 if none.
int index_above(const ExportHost &host, const prof_track_desc *desc, prof_track_kind kind) {
  for (int depth = 0; desc != nullptr && depth < 16; ++depth) {
    if (desc->kind == kind && desc->index >= 0) return desc->index;
    desc = desc->parent == 0 ? nullptr : host.track(desc->parent);
  }
  return -1;
}

std::string percent(double without_wait, double with_wait) {
  if (with_wait <= 0) return "-";
  char text[32];
  std::snprintf(text, sizeof text, "%g%%", 100.0 * without_wait / with_wait);
  return text;
}

} // namespace

std::string SipEfficiency::sip_label(const prof_track_desc &counter) const {
  const prof_track_desc *sip = counter.parent == 0 ? nullptr : host_.track(counter.parent);
  if (sip == nullptr) return "sip:?";
  const int device = index_above(host_, sip, PROF_TRACK_DEVICE);
  const int cluster = index_above(host_, sip, PROF_TRACK_CLUSTER);
  return "sip:" + std::to_string(device) + ":" + std::to_string(cluster) + ":" +
         std::to_string(sip->index);
}

const SipEfficiency::CounterTrack &SipEfficiency::counter_track(prof_track_id track) {
  if (auto it = counter_tracks_.find(track); it != counter_tracks_.end()) return it->second;
  CounterTrack info;
  if (const prof_track_desc *desc = host_.track(track); desc && desc->name) {
    const std::string_view name = desc->name;
    if (name == "sip_busy_without_wait")
      info.kind = CounterKind::WithoutWait;
    else if (name == "sip_busy_with_wait")
      info.kind = CounterKind::WithWait;
    if (info.kind != CounterKind::Other) info.sip = sip_label(*desc);
  }
  return counter_tracks_.emplace(track, std::move(info)).first->second;
}

void SipEfficiency::add(const prof_event &e) {
  if (e.id == 0) return;
  if (e.type == PROF_EVENT_SLICE) {
    if (e.kind == PROF_CATEGORY_KERNEL) operators_[e.id] = {e.ts, e.duration, e.name};
  } else if (e.type == PROF_EVENT_COUNTER) {
    const CounterTrack &track = counter_track(e.track);
    if (track.kind == CounterKind::Other) return;
    SipValues &values = values_[e.id][track.sip];
    (track.kind == CounterKind::WithoutWait ? values.without_wait : values.with_wait) += e.value;
  }
}

std::vector<std::string> SipEfficiency::table() {
  std::vector<std::pair<uint64_t, uint64_t>> order; // (start, id) of operators with counters
  for (const auto &[id, op] : operators_)
    if (values_.count(id)) order.emplace_back(op.ts, id);
  if (order.empty())
    return {"no operator carried SIP counters: the metric needs the Operator activities "
            "(*/general/operator) and the SIPPMC busy events"};
  std::sort(order.begin(), order.end());

  using stats::Align;
  stats::TextTable table({{"Index", Align::Left},
                          {"Name", Align::Left},
                          {"OP ID", Align::Right},
                          {"Duration", Align::Right}});
  std::vector<std::vector<std::string>> rows;
  for (size_t index = 0; index < order.size(); ++index) {
    const uint64_t id = order[index].second;
    const Operator &op = operators_[id];
    rows.push_back({std::to_string(index), std::string(host_.string(op.name)),
                    std::to_string(local_correlation(id)), stats::format_duration(op.duration)});
    for (const auto &[sip, v] : values_[id])
      rows.push_back({sip, std::to_string(static_cast<uint64_t>(v.without_wait)),
                      std::to_string(static_cast<uint64_t>(v.with_wait)),
                      percent(v.without_wait, v.with_wait)});
  }
  // topsprof's second header line names the columns of the SIP rows.
  const std::vector<std::string> sip_header{"", "sip_busy_without_wait", "sip_busy_with_wait", "%"};
  table.fit_row(sip_header);
  for (const auto &row : rows)
    table.fit_row(row);
  std::vector<std::string> lines{table.header(), table.row(sip_header)};
  for (const auto &row : rows)
    lines.push_back(table.row(row));
  return lines;
}

} // namespace prof::gcu
