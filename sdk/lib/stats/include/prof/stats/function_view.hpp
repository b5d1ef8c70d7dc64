// The CPU function view of sampled call stacks: a flat table of self and
// total samples per function, and the top-down and bottom-up call trees.
#pragma once

#include <prof/event.h>

#include <cstdint>
#include <functional>
#include <string>
#include <unordered_map>
#include <vector>

namespace prof::stats {

/// Frames of a stack, names leaf first.
using StackResolver = std::function<std::vector<std::string>(prof_stack_id)>;

class FunctionView {
  friend struct AggregatorWire; // its bytes, for `prof stats` over MPI

public:
  /// One sample of `stack`: O(1).
  void add(prof_stack_id stack) {
    ++samples_by_stack_[stack];
    ++samples_;
  }
  uint64_t samples() const { return samples_; }
  /// Adds the samples `other` has seen (same stack ids).
  void merge(const FunctionView &other) {
    for (const auto &[stack, count] : other.samples_by_stack_)
      samples_by_stack_[stack] += count;
    samples_ += other.samples_;
  }

  /// Self and total samples of one function.
  struct FunctionRow {
    std::string name;
    uint64_t self = 0;
    uint64_t total = 0;
  };
  /// The flat view's rows, `rows` at most, by self then total samples.
  std::vector<FunctionRow> flat_rows(const StackResolver &resolve, size_t rows) const;

  /// "Self(%)  Self  Total(%)  Total  Function" rows, `rows` at most, by self
  /// then total samples. A recursive function counts once per sample in Total.
  std::vector<std::string> flat_table(const StackResolver &resolve, size_t rows) const;
  /// Call tree from the outermost caller down (top-down) or from the sampled
  /// function up its callers (bottom-up), nodes under `min_percent` of all
  /// samples pruned, children by samples.
  std::vector<std::string> call_tree(const StackResolver &resolve, bool top_down,
                                     double min_percent) const;

private:
  std::unordered_map<prof_stack_id, uint64_t> samples_by_stack_;
  uint64_t samples_ = 0;
};

} // namespace prof::stats
