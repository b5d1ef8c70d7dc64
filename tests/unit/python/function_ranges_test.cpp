// The plugin's side of the function trace: what its Python module calls
// (ranges_api.h) becomes annotation ranges on the calling thread, nested as
// the calls were, and the option's list is checked before anything runs.
#include "function_ranges.hpp"
#include "functions/ranges_api.h"

#include <prof/testing/fake_source_host.hpp>

#include <gtest/gtest.h>

#include <string>

extern "C" const prof_python_ranges_api *prof_python_ranges();

namespace prof::python {
namespace {

using Fake = prof::testing::FakeSourceHost;

TEST(FunctionRanges, CallsBecomeNestedRangesWhileARecorderIsSet) {
  Fake host{0, prof::testing::HostAbi::current};
  annotations::AnnotationRecorder *recorder =
      annotations::new_lasting_recorder(Host(host.api(), &host), "python");
  set_function_recorder(recorder);
  const prof_python_ranges_api &api = *prof_python_ranges();
  ASSERT_EQ(api.version, PROF_PYTHON_RANGES_VERSION);
  const int step = api.name("SGD.step", nullptr);
  const int forward = api.name("Linear.forward", "model");
  EXPECT_EQ(api.name("SGD.step", nullptr), step); // one index per name and domain
  EXPECT_NE(api.name("SGD.step", "model"), step);
  EXPECT_EQ(api.name(nullptr, nullptr), -1);

  api.enter(step);
  api.enter(forward);
  api.leave(forward);
  api.leave(step);
  // Past 64 open ranges, calls are not recorded; the outer ones stay whole.
  for (int i = 0; i < 100; ++i)
    api.enter(step);
  for (int i = 0; i < 100; ++i)
    api.leave(step);
  api.enter(7777); // never named: nothing, and its leave pops nothing
  api.leave(7777);
  set_function_recorder(nullptr);
  api.enter(step); // after stop: nothing
  api.leave(step);

  const auto slices = host.slices();
  ASSERT_EQ(slices.size(), 2u + 64u);
  EXPECT_EQ(slices[0].name, "Linear.forward");
  EXPECT_EQ(slices[0].category, "python/model");
  EXPECT_EQ(slices[1].name, "SGD.step");
  EXPECT_EQ(slices[1].category, "python");
  EXPECT_LE(slices[1].begin, slices[0].begin);
  EXPECT_GE(slices[1].begin + slices[1].duration, slices[0].begin + slices[0].duration);
  EXPECT_EQ(slices[0].track, slices[1].track);
}

TEST(FunctionRanges, TheOptionsListIsChecked) {
  std::string problem;
  for (const char *good :
       {"pytorch", "torch.nn:Module.__call__", "m:*", "m:f@My Domain", "pytorch;a.b:c;d:*@x"})
    EXPECT_TRUE(valid_function_list(good, problem)) << good << ": " << problem;
  for (const char *bad :
       {"", "m", "m:", ":f", "m:f@", "m:f;", "m..n:f", "m:f()", "pytorch@", "torch"}) {
    EXPECT_FALSE(valid_function_list(bad, problem)) << bad;
    EXPECT_NE(problem.find("expected pytorch, MODULE:QUALNAME or MODULE:*"), std::string::npos);
  }
}

} // namespace
} // namespace prof::python
