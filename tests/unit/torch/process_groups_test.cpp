// ProcessGroups: group names, per-group sequences, and which issued
// operation a backend's collective carries out.
#include "process_groups.hpp"

#include <gtest/gtest.h>

namespace prof::torch {
namespace {

int kWorld = 0, kPair = 0; // two groups: only their addresses matter

TEST(TorchProcessGroups, NamedGroupsGetTheirNameAndRanks) {
  ProcessGroups groups;
  groups.name(&kWorld, "", "gloo", 2, 4, {0, 1, 2, 3});
  groups.name(&kPair, "1", "gloo", 0, 2, {0, 2});
  const auto issued = groups.issue(&kWorld, "all_reduce", 0, 0);
  ASSERT_TRUE(issued);
  const GroupFacts world = groups.facts(issued->group);
  EXPECT_EQ(world.communicator, "gloo:default");
  EXPECT_EQ(world.ranks, "0-3");
  EXPECT_EQ(world.rank, 2);
  EXPECT_EQ(world.size, 4);
  EXPECT_EQ(groups.facts(groups.issue(&kPair, "barrier", 0, 0)->group).ranks, "0,2");
}

TEST(TorchProcessGroups, UnnamedGroupsAreCountedBySize) {
  ProcessGroups groups;
  int a = 0, b = 0;
  groups.name(&a, std::nullopt, "gloo", 0, 4, {});
  groups.name(&b, std::nullopt, "gloo", 0, 4, {});
  EXPECT_EQ(groups.facts(groups.issue(&a, "all_reduce", 0, 0)->group).communicator, "gloo:size4#1");
  EXPECT_EQ(groups.facts(groups.issue(&b, "all_reduce", 0, 0)->group).communicator, "gloo:size4#2");
  // Python names it later: the name wins, the sequence goes on.
  groups.name(&a, "0", "gloo", 0, 4, {0, 1, 2, 3});
  const auto third = groups.issue(&a, "all_reduce", 0, 0);
  EXPECT_EQ(groups.facts(third->group).communicator, "gloo:0");
  EXPECT_EQ(third->sequence, 2u);
}

TEST(TorchProcessGroups, SequencesCountPerGroup) {
  ProcessGroups groups;
  int a = 0, b = 0;
  groups.name(&a, "a", "gloo", 0, 2, {});
  groups.name(&b, "b", "gloo", 0, 2, {});
  EXPECT_EQ(groups.issue(&a, "all_reduce", 1, 0)->sequence, 1u);
  EXPECT_EQ(groups.issue(&b, "all_reduce", 2, 0)->sequence, 1u);
  EXPECT_EQ(groups.issue(&a, "broadcast", 3, 0)->sequence, 2u);
  EXPECT_FALSE(groups.issue(&kWorld, "all_reduce", 0, 0)); // never named
}

// Two ranks' views of one gloo group whose count PyTorch started at 1000:
// one saw every operation, the other came in after five (an attach). With
// PyTorch's own count they give each operation the same sequence.
TEST(TorchProcessGroups, PyTorchsOwnCountNumbersOperationsAlikeHoweverLateProfCameIn) {
  ProcessGroups from_start, attached;
  int group = 0;
  from_start.name(&group, "0", "gloo", 0, 2, {0, 1}, 1000);
  for (uint64_t before = 1000; before < 1005; ++before)
    from_start.issue(&group, "all_reduce", 0, 0, 0, false, before);
  attached.name(&group, "0", "gloo", 1, 2, {0, 1}, 1000);
  EXPECT_EQ(from_start.issue(&group, "all_reduce", 0, 0, 0, true, 1005)->sequence, 6u);
  EXPECT_EQ(attached.issue(&group, "all_reduce", 0, 0, 0, true, 1005)->sequence, 6u);
  // A call without PyTorch's count goes on from the last.
  EXPECT_EQ(attached.issue(&group, "barrier", 0, 0)->sequence, 7u);
  // Without the base (a group named by the bridge alone) it counts from prof's start.
  ProcessGroups unknown_base;
  unknown_base.name(&group, std::nullopt, "gloo", 0, 2, {});
  EXPECT_EQ(unknown_base.issue(&group, "all_reduce", 0, 0, 0, true, 1005)->sequence, 1u);
  // 2.x counts from 0: a known base of 0 numbers as PyTorch does.
  ProcessGroups two;
  two.name(&group, "0", "gloo", 0, 2, {0, 1}, 0);
  EXPECT_EQ(two.issue(&group, "all_reduce", 0, 0, 0, true, 140)->sequence, 141u);
}

TEST(TorchProcessGroups, AReduceScatterGlooRunsAsAnAllReduceIsTakenByIt) {
  ProcessGroups groups;
  groups.name(&kWorld, "0", "gloo", 0, 2, {});
  groups.issue(&kWorld, "all_gather", 100, 11);
  groups.issue(&kWorld, "reduce_scatter", 200, 22);
  groups.issue(&kWorld, "all_reduce", 300, 33);
  // An all-reduce of its own comes first; then the reduce-scatter, said as asked.
  const auto own = groups.carry_out("all_reduce", 0);
  EXPECT_EQ(own->flow, 33u);
  EXPECT_EQ(own->asked_for, "");
  const auto stand_in = groups.carry_out("all_reduce", 0);
  EXPECT_EQ(stand_in->flow, 22u);
  EXPECT_EQ(stand_in->asked_for, "reduce_scatter");
  EXPECT_FALSE(groups.carry_out("all_reduce", 0)); // an all-gather is never one
}

TEST(TorchProcessGroups, ABackendCallTakesTheOperationOnItsTensor) {
  ProcessGroups groups;
  groups.name(&kWorld, "", "gloo", 0, 2, {});
  groups.issue(&kWorld, "all_reduce", 100, 11);
  groups.issue(&kWorld, "all_reduce", 200, 22);
  groups.issue(&kWorld, "barrier", 0, 33);
  // The second bucket's all-reduce runs first: matched by its tensor.
  EXPECT_EQ(groups.carry_out("all_reduce", 200)->sequence, 2u);
  EXPECT_EQ(groups.carry_out("barrier", 0)->flow, 33u);
  // No tensor to go by: the oldest of the operation.
  EXPECT_EQ(groups.carry_out("all_reduce", 0)->sequence, 1u);
  EXPECT_FALSE(groups.carry_out("all_reduce", 100));
}

TEST(TorchProcessGroups, OperationsIssuedWhileNothingRecordsStillCount) {
  ProcessGroups groups;
  groups.name(&kWorld, "0", "gloo", 0, 2, {});
  groups.issue(&kWorld, "all_reduce", 100, 0, 0, false); // before the window opened
  EXPECT_FALSE(groups.carry_out("all_reduce", 100));     // nothing waits for a backend
  EXPECT_EQ(groups.issue(&kWorld, "all_reduce", 100, 0)->sequence, 2u);
  EXPECT_EQ(groups.carry_out("all_reduce", 100)->sequence, 2u);
}

TEST(TorchProcessGroups, OperationsAreNamedAsBackendsNameThem) {
  EXPECT_EQ(collective_operation("c10d::allreduce_"), "all_reduce");
  EXPECT_EQ(collective_operation("gloo:all_reduce"), "all_reduce");
  EXPECT_EQ(collective_operation("c10d::allgather_"), "all_gather");
  EXPECT_EQ(collective_operation("c10d::_allgather_base_"), "all_gather");
  EXPECT_EQ(collective_operation("c10d::alltoall_base_"), "all_to_all");
  EXPECT_EQ(collective_operation("gloo:all_to_all"), "all_to_all");
  EXPECT_EQ(collective_operation("c10d::reduce_scatter_"), "reduce_scatter");
  EXPECT_EQ(collective_operation("c10d::barrier"), "barrier");
  EXPECT_EQ(collective_operation("c10d::recv_any_source_"), "recv");
  EXPECT_EQ(collective_operation("gloo:recvAnySource"), "recv");
  EXPECT_EQ(collective_operation("c10d::broadcast_"), "broadcast");
}

TEST(TorchProcessGroups, RanksAreShownAsRuns) {
  EXPECT_EQ(ranks_text({0, 1, 2, 3}), "0-3");
  EXPECT_EQ(ranks_text({0, 2, 4}), "0,2,4");
  EXPECT_EQ(ranks_text({0, 1, 4, 5, 6, 9}), "0,1,4-6,9");
  EXPECT_EQ(ranks_text({}), "");
}

} // namespace
} // namespace prof::torch
