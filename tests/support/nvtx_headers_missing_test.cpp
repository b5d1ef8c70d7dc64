// The whole test binary where the build found no NVTX v3 headers: it skips,
// saying why, instead of passing silently.
#include <gtest/gtest.h>

TEST(Nvtx, NeedsTheNvtxHeaders) {
  GTEST_SKIP() << "no NVTX v3 headers in " PROF_NVTX_INCLUDE_DIR "/nvtx3 at configure time "
                  "(set PROF_NVTX_INCLUDE_DIR): the nvtx plugin was not built";
}
