#include "tests/support/background_process.hpp"
#include "tests/support/file_text.hpp"

#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <fcntl.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace prof::e2e {
namespace {} // namespace

Background::Background(const std::vector<std::string> &argv, const std::filesystem::path &dir,
                       const std::vector<std::string> &environment, const std::string &name) {
  int input[2];
  if (pipe(input) != 0) return;
  const std::string out = (dir / (name + ".out")).string(), err = (dir / (name + ".err")).string();
  pid_ = fork();
  if (pid_ == 0) {
    dup2(input[0], STDIN_FILENO);
    close(input[1]);
    const int o = open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    const int e = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    dup2(o, STDOUT_FILENO);
    dup2(e, STDERR_FILENO);
    if (chdir(dir.c_str()) != 0) _exit(126);
    for (const auto &entry : environment)
      putenv(const_cast<char *>(entry.c_str()));
    std::vector<char *> args;
    for (const auto &a : argv)
      args.push_back(const_cast<char *>(a.c_str()));
    args.push_back(nullptr);
    execv(args[0], args.data());
    _exit(127);
  }
  close(input[0]);
  input_ = input[1];
  out_ = out;
  err_ = err;
}

Background::~Background() {
  if (input_ >= 0) close(input_);
  if (pid_ > 0 && !waited_) {
    kill(pid_, SIGKILL);
    waitpid(pid_, nullptr, 0);
  }
}

void Background::type(const std::string &line) { (void)!write(input_, line.data(), line.size()); }

int Background::wait(std::chrono::milliseconds timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  int status = 0;
  while (waitpid(pid_, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) return -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  waited_ = true;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

std::string Background::output() const {
  return prof::testing::file_text(out_) + prof::testing::file_text(err_);
}

} // namespace prof::e2e
