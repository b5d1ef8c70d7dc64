// A program started as a job's ranks are when prof may attach later: with
// prof's agent preloaded and waiting (PROF_MODE=dynamic), its socket up.
#pragma once

#include "tests/support/background_process.hpp"
#include "tests/support/build_paths.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <memory>
#include <thread>

namespace prof::e2e {

/// Starts `argv` in `dir` with `environment` (which names XDG_RUNTIME_DIR=
/// the session folder's parent) and waits up to 5 s for its agent's socket.
inline std::unique_ptr<Background> start_waiting(const std::vector<std::string> &argv,
                                                 const std::filesystem::path &dir,
                                                 std::vector<std::string> environment,
                                                 const std::string &name) {
  std::filesystem::path runtime;
  for (const std::string &item : environment)
    if (item.starts_with("XDG_RUNTIME_DIR=")) runtime = item.substr(16);
  environment.insert(environment.end(), {"PROF_MODE=dynamic", "LD_PRELOAD=" + kAgent});
  auto app = std::make_unique<Background>(argv, dir, environment, name);
  const std::filesystem::path socket =
      runtime / "prof" / ("dynamic-" + std::to_string(app->pid()) + ".sock");
  for (int i = 0; i < 500 && !std::filesystem::exists(socket); ++i)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  EXPECT_TRUE(std::filesystem::exists(socket)) << app->output();
  return app;
}

} // namespace prof::e2e
