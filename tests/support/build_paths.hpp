// Where the suite's build put prof, its agent and the programs the
// end-to-end tests profile. Needs PROF_BUILD_DIR (the build folder).
#pragma once

#include <filesystem>
#include <string>

namespace prof::e2e {

inline const std::filesystem::path kBuildDir = PROF_BUILD_DIR;
inline const std::string kProf = (kBuildDir / "bin" / "prof").string();
inline const std::string kWorkload = (kBuildDir / "bin" / "prof-workload").string();
inline const std::string kTrain = (kBuildDir / "bin" / "gcu-train-step").string();
inline const std::string kAgent = (kBuildDir / "lib" / "prof" / "libprof-agent.so").string();

} // namespace prof::e2e
