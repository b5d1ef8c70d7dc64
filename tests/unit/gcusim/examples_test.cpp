// The example programs, run as built.
#include "gcusim_test_support.hpp"

#include "tests/support/build_paths.hpp"

#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

using namespace gcusim_test;

namespace {
std::string example(const char *name) { return prof::e2e::built_program(name); }
} // namespace

TEST(Examples, GcuAddAddsAndChecks) {
  ChildResult run = run_program(example("gcu-add"), {"--size", "100000", "--iterations", "2"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "gcu-add: 100000 elements x 2 iterations: ok (0 mismatches)\n");
  run = run_program(example("gcu-add"), {"--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "");
  run = run_program(example("gcu-add"),
                    {"--size", "50000", "--iterations", "3", "--timings", "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::istringstream lines(run.output);
  std::string line;
  int timed = 0;
  while (std::getline(lines, line)) {
    unsigned long long ns = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "kernel elementwise_add_dtu %llu ns", &ns), 1) << line;
    EXPECT_GT(ns, 0u);
    ++timed;
  }
  EXPECT_EQ(timed, 3);
  run = run_program(example("gcu-add"), {"--size", "zero"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.output.find("usage: gcu-add"), std::string::npos);
}

TEST(Examples, GcuTrainStepLowersTheLoss) {
  ChildResult run = run_program(example("gcu-train-step"), {"--steps", "6"});
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::istringstream lines(run.output);
  std::vector<double> losses;
  std::string line;
  while (std::getline(lines, line)) {
    int step = 0;
    double loss = 0;
    ASSERT_EQ(std::sscanf(line.c_str(), "step %d: loss %lf", &step, &loss), 2) << line;
    EXPECT_EQ(step, static_cast<int>(losses.size()) + 1);
    losses.push_back(loss);
  }
  ASSERT_EQ(losses.size(), 6u);
  for (size_t i = 1; i < losses.size(); ++i)
    EXPECT_LT(losses[i], losses[i - 1]) << "step " << i + 1;
  EXPECT_LT(losses.back(), 0.8 * losses.front());
}

TEST(Examples, GcuTrainStepRunsOnTwoDevices) {
  ChildResult run =
      run_program(example("gcu-train-step"), {"--steps", "2", "--devices", "2", "--quiet"});
  EXPECT_EQ(run.exit_code, 0) << run.output;
  EXPECT_EQ(run.output, "");
  run = run_program(example("gcu-train-step"), {"--devices", "3"});
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_EQ(run.output, "gcu-train-step: --devices 3, but there are 2 devices\n");
}
