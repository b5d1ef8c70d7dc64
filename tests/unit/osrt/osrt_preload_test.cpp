// The built libprof-osrt.so: preloaded without the agent it passes every call
// through; loaded as the host loads it it shows its descriptor and exports
// the pthread_cond_* interposers under both glibc versions.
#include "tests/support/build_paths.hpp"
#include "tests/support/loaded_plugin.hpp"
#include <prof/plugin.h>

#include <gtest/gtest.h>

#include <dlfcn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>

namespace {

const std::string kPlugin = prof::e2e::plugin_library("osrt");
const std::string kChild = prof::e2e::test_program("osrt_preload_child");

struct RunResult {
  int status;
  std::string output;
};

RunResult run_preloaded(const std::string &program, const char *shell_command = nullptr) {
  int out[2];
  EXPECT_EQ(pipe(out), 0);
  const pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    close(out[0]);
    close(out[1]);
    setenv("LD_PRELOAD", kPlugin.c_str(), 1);
    if (shell_command != nullptr)
      execl(program.c_str(), program.c_str(), "-c", shell_command, static_cast<char *>(nullptr));
    else
      execl(program.c_str(), program.c_str(), static_cast<char *>(nullptr));
    _exit(127);
  }
  close(out[1]);
  RunResult result{-1, {}};
  char buf[256];
  ssize_t got;
  while ((got = read(out[0], buf, sizeof buf)) > 0)
    result.output.append(buf, got);
  close(out[0]);
  waitpid(pid, &result.status, 0);
  return result;
}

TEST(OsrtPreload, ProgramRunsNormallyWithThePluginPreloadedAndNoAgent) {
  const RunResult result = run_preloaded(kChild);
  ASSERT_TRUE(WIFEXITED(result.status));
  EXPECT_EQ(WEXITSTATUS(result.status), 0);
  EXPECT_EQ(result.output, "osrt_preload_child ok\n");
}

TEST(OsrtPreload, ShellPipelineRunsWithThePluginPreloaded) {
  const RunResult result =
      run_preloaded("/bin/sh", "printf 'b\\na\\n' | sort | tr -d '\\n'; sleep 0.01; exit 4");
  ASSERT_TRUE(WIFEXITED(result.status));
  EXPECT_EQ(WEXITSTATUS(result.status), 4);
  EXPECT_EQ(result.output, "ab");
}

TEST(OsrtPlugin, LoadsLocallyAndExportsBothCondVersions) {
  const prof::testing::LoadedPlugin plugin("osrt");
  const prof_plugin_descriptor *descriptor = plugin.descriptor();
  ASSERT_NE(descriptor, nullptr);
  EXPECT_STREQ(descriptor->name, "osrt");
  EXPECT_EQ(descriptor->scope, PROF_SCOPE_PROCESS);
  EXPECT_EQ(descriptor->abi_major, PROF_ABI_MAJOR);

  for (const char *name : {"pthread_cond_wait", "pthread_cond_timedwait"}) {
    for (const char *version : {"GLIBC_2.3.2", "GLIBC_2.2.5"}) {
      void *symbol = plugin.symbol(name, version);
      ASSERT_NE(symbol, nullptr) << name << "@" << version;
      Dl_info info{};
      ASSERT_NE(dladdr(symbol, &info), 0);
      EXPECT_EQ(std::string(info.dli_fname), kPlugin) << name << "@" << version;
    }
  }
  // The two versions are different interposers (each calls its own real one).
  EXPECT_NE(plugin.symbol("pthread_cond_wait", "GLIBC_2.3.2"),
            plugin.symbol("pthread_cond_wait", "GLIBC_2.2.5"));
  for (const char *name : {"read", "write", "pthread_mutex_lock", "fopen64", "__read_chk"})
    EXPECT_NE(plugin.symbol(name), nullptr) << name;
}

} // namespace
