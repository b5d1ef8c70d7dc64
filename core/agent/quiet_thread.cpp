#include "core/agent/quiet_thread.hpp"

#include <csignal>
#include <pthread.h>
#include <thread>

namespace prof::agent {

bool start_quiet_thread(const char *name, std::function<void()> run, std::string *error) {
  // The new thread inherits this mask: blocked from its first instruction.
  sigset_t all, old;
  sigfillset(&all);
  pthread_sigmask(SIG_SETMASK, &all, &old);
  bool started = true;
  try {
    std::thread([name, run = std::move(run)] {
      pthread_setname_np(pthread_self(), name);
      run();
    }).detach();
  } catch (const std::exception &e) {
    *error = std::string("cannot start thread ") + name + ": " + e.what();
    started = false;
  }
  pthread_sigmask(SIG_SETMASK, &old, nullptr);
  return started;
}

} // namespace prof::agent
