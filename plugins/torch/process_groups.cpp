#include "process_groups.hpp"

#include <cctype>

namespace prof::torch {

void ProcessGroups::name(const void *address, std::optional<std::string_view> name,
                         std::string_view backend, int rank, int size,
                         const std::vector<int64_t> &ranks) {
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
}

bool ProcessGroups::knows(const void *address) const {
  std::lock_guard lock(mutex_);
  return index_of_.contains(address);
}

std::optional<IssuedCollective> ProcessGroups::issue(const void *address,
                                                     std::string_view operation, uint64_t tensor,
                                                     uint64_t flow, uint64_t issued_ns, bool wait) {
  std::lock_guard lock(mutex_);
  const auto found = index_of_.find(address);
  if (found == index_of_.end()) return std::nullopt;
  const IssuedCollective issued{found->second, ++groups_[found->second - 1].issued, flow,
                                issued_ns};
  if (!wait) return issued;
  if (waiting_.size() >= kMaxWaiting) waiting_.pop_front();
  waiting_.push_back({std::string(operation), tensor, issued});
  return issued;
}

std::optional<IssuedCollective> ProcessGroups::carry_out(std::string_view operation,
                                                         uint64_t tensor) {
  std::lock_guard lock(mutex_);
  auto chosen = waiting_.end();
  for (auto it = waiting_.begin(); it != waiting_.end(); ++it) {
    if (it->operation != operation) continue;
    if (tensor != 0 && it->tensor == tensor) {
      chosen = it;
      break;
    }
    if (chosen == waiting_.end()) chosen = it;
  }
  if (chosen == waiting_.end()) return std::nullopt;
  const IssuedCollective issued = chosen->issued;
  waiting_.erase(chosen);
  return issued;
}

GroupFacts ProcessGroups::facts(uint64_t index) const {
  std::lock_guard lock(mutex_);
  return index >= 1 && index <= groups_.size() ? groups_[index - 1].facts : GroupFacts{};
}

ProcessGroups &process_groups() {
  static auto *groups = new ProcessGroups;
  return *groups;
}

std::string collective_operation(std::string_view name) {
  if (const size_t colons = name.find("::"); colons != std::string_view::npos) {
    name.remove_prefix(colons + 2);
    while (name.starts_with('_'))
      name.remove_prefix(1);
    while (name.ends_with('_'))
      name.remove_suffix(1);
    if (name.ends_with("_base")) name.remove_suffix(5);
    if (name.ends_with("_coalesced")) name.remove_suffix(10);
  } else if (const size_t colon = name.find(':'); colon != std::string_view::npos) {
    name.remove_prefix(colon + 1);
  }
  std::string operation;
  for (const char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) break; // recvAnySource
    operation += c;
  }
  // c10d's operators run the words together: allreduce, allgather, alltoall.
  if (operation.starts_with("all") && operation.size() > 3 && operation[3] != '_')
    operation.insert(3, "_");
  if (operation == "all_toall") operation = "all_to_all";
  if (operation == "all_gather_into_tensor") operation = "all_gather";
  if (operation == "reduce_scatter_tensor") operation = "reduce_scatter";
  if (operation == "recv_any_source") operation = "recv";
  return operation;
}

std::string ranks_text(const std::vector<int64_t> &ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(ranks[i]);
    if (j > i) text += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

} // namespace prof::torch
