// Step-aligned windows: the window opens when the first process begins step
// S and closes when the last one ends step S+K-1; S is picked past every
// process's step, or given.
#include "core/capture/step_alignment.hpp"

#include <gtest/gtest.h>

namespace prof::core {
namespace {

using Action = StepAlignment::Action;

TEST(StepAlignment, PicksTheStepAfterTheFurthestProcessOnceAllTold) {
  StepAlignment steps(0, 3, 3);
  steps.position(10, 40);
  steps.position(11, 42);
  EXPECT_FALSE(steps.pick(false)) << "one process has not told its step";
  steps.position(12, 41);
  ASSERT_TRUE(steps.pick(false));
  // Process 11 is in step 43: step 44 is the next to begin everywhere.
  EXPECT_EQ(steps.first_step(), 44u);
  EXPECT_EQ(steps.last_step(), 46u);
  EXPECT_EQ(steps.positions_text(), "3 processes in steps 41 to 43");
}

TEST(StepAlignment, OpensAtTheFirstBeginningAndClosesAtTheLastEnd) {
  StepAlignment steps(0, 2, 2);
  steps.position(1, 5);
  steps.position(2, 4);
  ASSERT_TRUE(steps.pick(false));
  ASSERT_EQ(steps.first_step(), 7u);
  EXPECT_EQ(steps.boundary(1, 6, 100), Action::Open) << "process 1 begins step 7";
  EXPECT_EQ(steps.boundary(2, 5, 200), Action::None);
  EXPECT_EQ(steps.boundary(2, 6, 300), Action::None) << "the window is open already";
  EXPECT_EQ(steps.boundary(1, 7, 400), Action::None);
  EXPECT_EQ(steps.boundary(1, 8, 500), Action::None) << "process 2 is still in step 8";
  EXPECT_EQ(steps.boundary(2, 7, 600), Action::None);
  EXPECT_EQ(steps.boundary(2, 8, 700), Action::Close);
  EXPECT_EQ(steps.boundary(2, 9, 800), Action::None) << "one window";
  EXPECT_TRUE(steps.late().empty());
  // Each process's own steps: from its boundary 6 to its boundary 8.
  ASSERT_EQ(steps.spans().size(), 2u);
  EXPECT_EQ(steps.spans().at(1).begin, 100u);
  EXPECT_EQ(steps.spans().at(1).end, 500u);
  EXPECT_EQ(steps.spans().at(2).begin, 300u);
  EXPECT_EQ(steps.spans().at(2).end, 700u);
}

TEST(StepAlignment, WaitsForEveryExpectedProcessNotOnlyThoseThatBegan) {
  StepAlignment steps(3, 1, 2);
  steps.position(1, 0);
  steps.position(2, 0);
  ASSERT_TRUE(steps.pick(false));
  EXPECT_EQ(steps.boundary(1, 2, 900), Action::Open);
  EXPECT_EQ(steps.boundary(1, 3, 1000), Action::None) << "process 2 has not begun step 3 yet";
  EXPECT_EQ(steps.boundary(2, 2, 1100), Action::None);
  EXPECT_EQ(steps.boundary(2, 3, 1200), Action::Close);
}

TEST(StepAlignment, AProcessPastTheGivenStepIsLateAndNotWaitedFor) {
  StepAlignment steps(5, 2, 2);
  steps.position(1, 2);
  steps.position(2, 9); // in step 10: step 5 is gone
  ASSERT_TRUE(steps.pick(false));
  EXPECT_EQ(steps.late().count(2), 1u);
  EXPECT_EQ(steps.boundary(2, 10, 1300), Action::None);
  EXPECT_EQ(steps.boundary(1, 4, 1400), Action::Open);
  EXPECT_EQ(steps.boundary(1, 6, 1500), Action::Close);
}

TEST(StepAlignment, ALostBoundaryStillOpensAndCloses) {
  StepAlignment steps(4, 2, 1);
  steps.position(1, 0);
  ASSERT_TRUE(steps.pick(false));
  EXPECT_EQ(steps.boundary(1, 1, 1600), Action::None);
  EXPECT_EQ(steps.boundary(1, 4, 1700), Action::Open) << "boundary 3 was lost: step 5 begins";
  EXPECT_EQ(steps.boundary(1, 7, 1800), Action::Close) << "boundary 5 was lost";
}

TEST(StepAlignment, LaunchedProcessesStartAtStepOneAndSkipIt) {
  StepAlignment steps(0, 1, 0);
  ASSERT_TRUE(steps.pick(false));
  EXPECT_EQ(steps.first_step(), 2u);
  EXPECT_EQ(steps.boundary(7, 1, 1900), Action::Open);
  EXPECT_EQ(steps.boundary(8, 1, 2000), Action::None);
  EXPECT_EQ(steps.boundary(7, 2, 2100), Action::None) << "process 8 began step 2 too";
  EXPECT_EQ(steps.boundary(8, 2, 2200), Action::Close);
}

TEST(StepAlignment, PickingCanBeForcedWithTheProcessesThatTold) {
  StepAlignment steps(0, 1, 4);
  steps.position(1, 10);
  EXPECT_FALSE(steps.pick(false));
  ASSERT_TRUE(steps.pick(true));
  EXPECT_EQ(steps.first_step(), 12u);
}

TEST(StepAlignment, AProcessThatNeverJoinedIsNotWaitedFor) {
  StepAlignment steps(0, 1, 3);
  steps.position(1, 10);
  steps.position(2, 12);
  EXPECT_FALSE(steps.pick(false)) << "3 were asked";
  steps.expect(2); // the third refused to join
  ASSERT_TRUE(steps.pick(false));
  EXPECT_EQ(steps.first_step(), 14u);
}

} // namespace
} // namespace prof::core
