#include <prof/stats/function_view.hpp>

#include <gtest/gtest.h>

#include <map>

using prof::stats::FunctionView;
using Lines = std::vector<std::string>;

namespace {
// Stacks leaf first: 1 = main > fib > fib > leaf, 2 = main > fib, 3 = main > io.
std::vector<std::string> resolve(prof_stack_id id) {
  static const std::map<prof_stack_id, std::vector<std::string>> stacks = {
      {1, {"leaf", "fib", "fib", "main"}}, {2, {"fib", "main"}}, {3, {"io", "main"}}};
  auto it = stacks.find(id);
  return it == stacks.end() ? std::vector<std::string>{} : it->second;
}

FunctionView view() {
  FunctionView v;
  for (int i = 0; i < 6; ++i) v.add(1);
  for (int i = 0; i < 3; ++i) v.add(2);
  v.add(3);
  return v;
}
} // namespace

TEST(FunctionView, FlatTableCountsRecursionOncePerSample) {
  EXPECT_EQ(view().flat_table(resolve, 10),
            (Lines{"Self(%)  Self  Total(%)  Total  Function",
                   " 60.00%     6    60.00%      6  leaf",
                   " 30.00%     3    90.00%      9  fib",
                   " 10.00%     1    10.00%      1  io",
                   "  0.00%     0   100.00%     10  main"}));
  EXPECT_EQ(view().flat_table(resolve, 2).size(), 3u);
}

TEST(FunctionView, TopDownTreeFromTheOutermostCaller) {
  EXPECT_EQ(view().call_tree(resolve, true, 0),
            (Lines{"Total(%)  Self(%)  Function",
                   " 100.00%    0.00%  main",
                   "  90.00%   30.00%    fib",
                   "  60.00%    0.00%      fib",
                   "  60.00%   60.00%        leaf",
                   "  10.00%   10.00%    io"}));
}

TEST(FunctionView, BottomUpTreeFromTheSampledFunctionAndPruning) {
  EXPECT_EQ(view().call_tree(resolve, false, 15),
            (Lines{"Total(%)  Function",
                   "  60.00%  leaf",
                   "  60.00%    fib",
                   "  60.00%      fib",
                   "  60.00%        main",
                   "  30.00%  fib",
                   "  30.00%    main"}));
}
