// The whole test binary where the build found no CUPTI: it skips, saying
// why, instead of passing silently.
#include <gtest/gtest.h>

TEST(Cuda, NeedsCupti) {
  GTEST_SKIP() << "no CUPTI headers and library under " PROF_CUDA_ROOT " at configure time "
                  "(set PROF_CUDA_ROOT): the cuda plugin was not built";
}
