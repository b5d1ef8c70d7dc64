// add_collectives (trace_passes.hpp): the collectives of an imported trace
// in the torch source's shape, so the collectives and stragglers reports
// match them across ranks.
#include "read/trace_passes.hpp"
#include "read/trace_values.hpp"
#include <prof/collective_names.hpp>

#include <prof/event.hpp>

#include <algorithm>
#include <deque>
#include <limits>
#include <map>
#include <numeric>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace prof::kineto {
namespace {

/// The default group's name, as PyTorch 2.x names it ("Process Group Name"
/// of record_param_comms), for a trace that does not say.
constexpr std::string_view kDefaultGroup = "0";

/// How far back from a collective a record_param_comms is looked for.
constexpr size_t kFactsLookBack = 64;

/// The global ranks "0-3,5" names.
std::vector<int64_t> expanded_ranks(std::string_view text) {
  std::vector<int64_t> ranks;
  size_t i = 0;
  while (i < text.size()) {
    const size_t comma = std::min(text.find(',', i), text.size());
    const std::string_view part = text.substr(i, comma - i);
    const size_t dash = part.find('-');
    try {
      const int64_t first = std::stoll(std::string(part.substr(0, dash)));
      const int64_t last =
          dash == std::string_view::npos ? first : std::stoll(std::string(part.substr(dash + 1)));
      for (int64_t r = first; r <= last && ranks.size() < 1'000'000; ++r)
        ranks.push_back(r);
    } catch (const std::exception &) {
      return {};
    }
    i = comma + 1;
  }
  return ranks;
}

class CollectivePass {
public:
  explicit CollectivePass(ImportedTrace &trace) : trace_(trace), events_(trace.events) {
    const auto key = [&](const char *name) { return trace_.strings.intern(name); };
    keys_ = {key("communicator"), key("sequence"),   key(PROF_COMMUNICATION_ARG_QUEUED),
             key("operation"),    key("bytes"),      key("elements"),
             key("dtype"),        key("backend"),    key("group size"),
             key("rank"),         key("group ranks")};
    flow_category_ = key("c10d");
  }

  void run() {
    std::vector<size_t> backend_calls, c10d_operators;
    for (size_t i = 0; i < events_.size(); ++i) {
      const EventRole role = events_[i].role;
      if (role == EventRole::BackendCollective) backend_calls.push_back(i);
      if (role == EventRole::C10dOperator) c10d_operators.push_back(i);
      if (role == EventRole::ParamComms) param_comms_.push_back(i);
    }
    const auto by_time = [&](size_t a, size_t b) {
      return events_[a].ts != events_[b].ts ? events_[a].ts < events_[b].ts : a < b;
    };
    std::sort(backend_calls.begin(), backend_calls.end(), by_time);
    std::sort(c10d_operators.begin(), c10d_operators.end(), by_time);
    std::sort(param_comms_.begin(), param_comms_.end(), by_time);
    used_facts_.assign(param_comms_.size(), false);
    // Without the backends' own events, the c10d operators are the collectives.
    const bool c10d_only = backend_calls.empty();
    const std::vector<size_t> &collectives = c10d_only ? c10d_operators : backend_calls;
    const std::map<size_t, size_t> issued_by =
        c10d_only ? std::map<size_t, size_t>{} : match_operators(c10d_operators, backend_calls);
    for (const size_t i : collectives) {
      const auto issuer = issued_by.find(i);
      describe(i, issuer == issued_by.end() ? std::nullopt : std::optional(issuer->second));
    }
    const std::set<FlowEnds> flows = existing_flows();
    for (const auto &[call, c10d] : issued_by) {
      ImportedEvent &op = events_[c10d];
      op.args.push_back(arg_string(keys_.communicator, communicator_of_[call]));
      op.args.push_back(arg_uint(keys_.sequence, sequence_of_[call]));
      const ImportedEvent &to = events_[call];
      if (!flows.contains({op.lane, op.ts, to.lane, to.ts})) add_flow(op, to);
    }
  }

private:
  /// Where a flow begins and ends: lane and time of each end.
  using FlowEnds = std::tuple<Lane, int64_t, Lane, int64_t>;

  /// The flows the trace has (a trace prof exported has the c10d ones).
  std::set<FlowEnds> existing_flows() const {
    std::map<std::pair<prof_string_id, uint64_t>,
             std::pair<const ImportedEvent *, const ImportedEvent *>>
        ends;
    for (const ImportedEvent &e : events_)
      if (e.type == PROF_EVENT_FLOW && e.phase != PROF_FLOW_STEP)
        (e.phase == PROF_FLOW_BEGIN ? ends[{e.category, e.id}].first
                                    : ends[{e.category, e.id}].second) = &e;
    std::set<FlowEnds> flows;
    for (const auto &[key, pair] : ends)
      if (pair.first != nullptr && pair.second != nullptr)
        flows.insert({pair.first->lane, pair.first->ts, pair.second->lane, pair.second->ts});
    return flows;
  }

  /// Each c10d operator with the backend call that carried it out: the
  /// first not yet taken of its operation in its process that began with
  /// or after it. Returns backend call -> c10d operator.
  std::map<size_t, size_t> match_operators(const std::vector<size_t> &c10d_operators,
                                           const std::vector<size_t> &backend_calls) {
    std::map<std::pair<int64_t, std::string>, std::deque<size_t>> waiting;
    for (const size_t call : backend_calls)
      waiting[{events_[call].lane.pid, operation_of(call)}].push_back(call);
    std::map<size_t, size_t> issued_by;
    for (const size_t op : c10d_operators) {
      auto found = waiting.find({events_[op].lane.pid, operation_of(op)});
      if (found == waiting.end()) continue;
      std::deque<size_t> &calls = found->second;
      while (!calls.empty() && events_[calls.front()].ts < events_[op].ts)
        calls.pop_front();
      if (calls.empty()) continue;
      issued_by[calls.front()] = op;
      calls.pop_front();
    }
    return issued_by;
  }

  std::string operation_of(size_t i) const {
    return collective_operation(trace_.strings.text(events_[i].name));
  }

  /// The backend a collective ran on: its name's ("gloo:all_reduce"), else
  /// the trace's.
  std::string backend_of(size_t i) const {
    const ImportedEvent &e = events_[i];
    const std::string &name = trace_.strings.text(e.name);
    if (e.role == EventRole::BackendCollective) return name.substr(0, name.find(':'));
    return trace_.distributed.backend.empty() ? "c10d" : trace_.distributed.backend;
  }

  /// The record_param_comms that describes collective `i`: the latest one
  /// not yet taken around it on its thread, else before it in its process.
  const CollectiveFacts *facts_of(size_t i) {
    const ImportedEvent &e = events_[i];
    const auto after = std::upper_bound(param_comms_.begin(), param_comms_.end(), e.ts,
                                        [&](int64_t ts, size_t p) { return ts < events_[p].ts; });
    std::optional<size_t> in_process;
    size_t looked = 0;
    for (auto it = after; it != param_comms_.begin() && looked < kFactsLookBack; ++looked) {
      --it;
      const size_t slot = static_cast<size_t>(it - param_comms_.begin());
      const ImportedEvent &p = events_[*it];
      if (used_facts_[slot] || p.lane.pid != e.lane.pid) continue;
      if (p.lane == e.lane && e.ts <= p.ts + p.duration) {
        used_facts_[slot] = true;
        return p.facts.get();
      }
      if (!in_process) in_process = slot;
    }
    if (!in_process) return nullptr;
    used_facts_[*in_process] = true;
    return events_[param_comms_[*in_process]].facts.get();
  }

  void describe(size_t i, std::optional<size_t> issuer) {
    // Its own facts first; its record_param_comms is taken either way.
    const CollectiveFacts *around = facts_of(i);
    const CollectiveFacts *facts = events_[i].facts ? events_[i].facts.get() : around;
    const std::string backend = backend_of(i);
    const bool named_group = facts != nullptr && !facts->group_name.empty();
    const std::string group = named_group ? facts->group_name : std::string(kDefaultGroup);
    const bool default_group = group == kDefaultGroup;
    const std::string communicator = backend + ":" + group;
    uint64_t &last = sequences_[communicator];
    const uint64_t sequence = facts != nullptr && facts->sequence >= 0
                                  ? static_cast<uint64_t>(facts->sequence)
                                  : last + 1;
    last = std::max(last, sequence);

    std::string operation = operation_of(i);
    if (!known_collective_operation(operation) && facts != nullptr && !facts->collective.empty())
      operation = collective_operation(facts->collective);
    const DistributedInfo &job = trace_.distributed;
    int64_t group_size = facts != nullptr ? facts->group_size : -1;
    std::string ranks = facts != nullptr ? facts->group_ranks : "";
    if (default_group && job.world_size && *job.world_size > 0) {
      if (group_size < 0) group_size = *job.world_size;
      if (ranks.empty()) {
        std::vector<int64_t> all(static_cast<size_t>(std::min<int64_t>(*job.world_size, 1 << 20)));
        std::iota(all.begin(), all.end(), 0);
        ranks = ranks_text(all);
      }
    }
    int64_t rank = -1;
    if (job.rank) {
      const std::vector<int64_t> members = expanded_ranks(ranks);
      const auto at = std::find(members.begin(), members.end(), *job.rank);
      if (at != members.end())
        rank = at - members.begin();
      else if (default_group && ranks.empty())
        rank = *job.rank;
    }

    ImportedEvent &e = events_[i];
    const prof_string_id communicator_id = text(communicator);
    std::vector<prof_arg> args = {arg_string(keys_.communicator, communicator_id),
                                  arg_uint(keys_.sequence, sequence)};
    if (issuer && events_[*issuer].ts < e.ts)
      args.push_back(arg_uint(keys_.queued, static_cast<uint64_t>(e.ts - events_[*issuer].ts)));
    args.push_back(arg_string(keys_.operation, text(operation)));
    if (facts != nullptr && facts->in_elements >= 0) {
      if (const uint32_t size = dtype_size(facts->dtype);
          size != 0 && facts->in_elements <= std::numeric_limits<int64_t>::max() / size)
        args.push_back(arg_int(keys_.bytes, facts->in_elements * static_cast<int64_t>(size)));
      args.push_back(arg_int(keys_.elements, facts->in_elements));
    }
    if (facts != nullptr && !facts->dtype.empty())
      args.push_back(arg_string(keys_.dtype, text(facts->dtype)));
    args.push_back(arg_string(keys_.backend, text(backend)));
    if (group_size >= 0) args.push_back(arg_int(keys_.group_size, group_size));
    if (rank >= 0) args.push_back(arg_int(keys_.rank, rank));
    if (!ranks.empty()) args.push_back(arg_string(keys_.group_ranks, text(ranks)));
    e.kind = PROF_CATEGORY_COMMUNICATION;
    e.args = std::move(args);
    communicator_of_[i] = communicator_id;
    sequence_of_[i] = sequence;
  }

  void add_flow(const ImportedEvent &from, const ImportedEvent &to) {
    ++flows_;
    ImportedEvent begin;
    begin.type = PROF_EVENT_FLOW;
    begin.phase = PROF_FLOW_BEGIN;
    begin.category = flow_category_;
    begin.id = flows_;
    begin.ts = from.ts;
    begin.lane = from.lane;
    ImportedEvent end = begin;
    end.phase = PROF_FLOW_END;
    end.ts = to.ts;
    end.lane = to.lane;
    events_.push_back(std::move(begin));
    events_.push_back(std::move(end));
  }

  prof_string_id text(std::string_view value) { return trace_.strings.intern(value); }

  ImportedTrace &trace_;
  std::vector<ImportedEvent> &events_;
  std::vector<size_t> param_comms_;
  std::vector<bool> used_facts_;
  std::map<std::string, uint64_t> sequences_;
  std::map<size_t, prof_string_id> communicator_of_;
  std::map<size_t, uint64_t> sequence_of_;
  uint64_t flows_ = 0;
  prof_string_id flow_category_ = 0;
  struct Keys {
    prof_string_id communicator, sequence, queued, operation, bytes, elements, dtype, backend,
        group_size, rank, group_ranks;
  } keys_{};
};

} // namespace

void add_collectives(ImportedTrace &trace) { CollectivePass(trace).run(); }

} // namespace prof::kineto
