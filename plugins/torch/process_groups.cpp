#include "process_groups.hpp"

namespace prof::torch {

void ProcessGroups::name(const void *address, std::optional<std::string_view> name,
                         std::string_view backend, int rank, int size,
                         const std::vector<int64_t> &ranks, uint64_t sequence_base) {
  std::lock_guard lock(mutex_);
  auto [it, added] = index_of_.try_emplace(address, groups_.size() + 1);
  if (added) groups_.emplace_back();
  Group &group = groups_[it->second - 1];
  GroupFacts &facts = group.facts;
  if (name) {
    facts.communicator =
        std::string(backend) + ":" + (name->empty() ? std::string("default") : std::string(*name));
  } else if (facts.communicator.empty()) {
    const int count = ++unnamed_[{std::string(backend), size}];
    facts.communicator =
        std::string(backend) + ":size" + std::to_string(size) + "#" + std::to_string(count);
  }
  facts.backend = backend;
  facts.rank = rank;
  facts.size = size;
  if (!ranks.empty()) facts.ranks = ranks_text(ranks);
  if (sequence_base != kSequenceUnknown) group.sequence_base = sequence_base;
}

bool ProcessGroups::knows(const void *address) const {
  std::lock_guard lock(mutex_);
  return index_of_.contains(address);
}

std::optional<IssuedCollective> ProcessGroups::issue(const void *address,
                                                     std::string_view operation, uint64_t tensor,
                                                     uint64_t flow, uint64_t issued_ns, bool wait,
                                                     uint64_t group_sequence) {
  std::lock_guard lock(mutex_);
  const auto found = index_of_.find(address);
  if (found == index_of_.end()) return std::nullopt;
  Group &group = groups_[found->second - 1];
  if (group.sequence_base != kSequenceUnknown && group_sequence >= group.sequence_base)
    group.issued = group_sequence - group.sequence_base;
  const IssuedCollective issued{found->second, ++group.issued, flow, issued_ns};
  if (!wait) return issued;
  if (waiting_.size() >= kMaxWaiting) waiting_.pop_front();
  waiting_.push_back({std::string(operation), tensor, issued});
  return issued;
}

namespace {

/// Whether a backend may carry out `asked` with a call of `carried`: gloo
/// runs a reduce-scatter (FSDP's gradients) as an all-reduce of the input.
bool carried_as(std::string_view asked, std::string_view carried) {
  return asked == "reduce_scatter" && carried == "all_reduce";
}

} // namespace

std::optional<IssuedCollective> ProcessGroups::carry_out(std::string_view operation,
                                                         uint64_t tensor) {
  std::lock_guard lock(mutex_);
  auto chosen = waiting_.end(), stand_in = waiting_.end();
  for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
    if (it->operation != operation) {
      if (stand_in == waiting_.end() && carried_as(it->operation, operation)) stand_in = it;
      continue;
    }
    if (tensor != 0 && it->tensor == tensor) {
      chosen = it;
      break;
    }
    if (chosen == waiting_.end()) chosen = it;
  }
  if (chosen == waiting_.end()) chosen = stand_in;
  if (chosen == waiting_.end()) return std::nullopt;
  IssuedCollective issued = chosen->issued;
  if (chosen->operation != operation) issued.asked_for = chosen->operation;
  waiting_.erase(chosen);
  return issued;
}

void ProcessGroups::forget_waiting() {
  std::lock_guard lock(mutex_);
  waiting_.clear();
}

GroupFacts ProcessGroups::facts(uint64_t index) const {
  std::lock_guard lock(mutex_);
  return index >= 1 && index <= groups_.size() ? groups_[index - 1].facts : GroupFacts{};
}

ProcessGroups &process_groups() {
  static auto *groups = new ProcessGroups;
  return *groups;
}

} // namespace prof::torch
