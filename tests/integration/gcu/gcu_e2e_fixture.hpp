// What the GCU end-to-end tests share: the programs they run, a scratch
// folder per test, and prof's output without its "==PID== " prefixes.
#pragma once

#include "tests/support/build_paths.hpp"
#include "tests/support/file_text.hpp"
#include "tests/support/process_runner.hpp"
#include "tests/support/scratch_dir.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace prof::e2e {

namespace fs = std::filesystem;
inline const std::string kAdd = built_program("gcu-add");

/// Lines of prof's output without their "==PID== " prefix.
inline std::vector<std::string> unprefixed(const std::string &out) {
  static const std::regex prefix(R"(^==\d+== (.*)$)");
  std::vector<std::string> lines;
  for (const std::string &line : split_lines(out)) {
    std::smatch m;
    lines.push_back(std::regex_match(line, m, prefix) ? std::string(m[1]) : line);
  }
  return lines;
}

class GcuE2E : public ::testing::Test {
protected:
  /// prof with `env` settings ("KEY=VALUE") in its environment.
  RunResult prof(std::vector<std::string> args, std::vector<std::string> env = {}) {
    std::vector<std::string> argv{"/usr/bin/env"};
    argv.insert(argv.end(), env.begin(), env.end());
    argv.push_back(kProf);
    argv.insert(argv.end(), args.begin(), args.end());
    return run_process(argv, dir_, std::chrono::seconds(120));
  }
  std::string report() const { return (dir_ / "r.profrep").string(); }

  prof::testing::ScratchDir scratch_{"prof-gcu", prof::testing::ScratchDir::Keep::on_failure};
  const fs::path dir_{scratch_.path()};
};

} // namespace prof::e2e
