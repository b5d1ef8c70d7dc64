// Where the suite's build put prof, its agent, its plugins and the programs
// the tests run: every test finds them here. Needs PROF_BUILD_DIR (the build
// folder; prof_add_test defines it).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace prof::e2e {

inline const std::filesystem::path kBuildDir = PROF_BUILD_DIR;

/// A program prof's build installs in bin/: prof's tools, gcusim's examples.
inline std::string built_program(std::string_view name) {
  return (kBuildDir / "bin" / name).string();
}
/// A program a test folder builds for its tests, in tests/ of the build
/// (`name` may name a folder under it: "cpu-perf/cpu_perf_recursive").
inline std::string test_program(std::string_view name) {
  return (kBuildDir / "tests" / name).string();
}
/// The folder of the built plugins, as prof finds them.
inline const std::filesystem::path kPluginDir = kBuildDir / "lib" / "prof" / "plugins";
/// A built plugin: libprof-NAME.so in kPluginDir.
inline std::string plugin_library(std::string_view name) {
  return (kPluginDir / ("libprof-" + std::string(name) + ".so")).string();
}

inline const std::string kProf = built_program("prof");
inline const std::string kWorkload = built_program("prof-workload");
inline const std::string kTrain = built_program("gcu-train-step");
inline const std::string kPluginCheck = built_program("prof-plugin-check");
inline const std::string kAgent = (kBuildDir / "lib" / "prof" / "libprof-agent.so").string();

} // namespace prof::e2e
