#include "sigprof_chain.hpp"

#include <dlfcn.h>

#include <atomic>
#include <cstring>

namespace prof::python {
namespace {

using SigactionFn = int (*)(int, const struct sigaction *, struct sigaction *);

std::atomic<bool> g_taken{false};
// The application's action: written into the slot not in use, then
// published, so the handler always reads a whole one. Writers are the
// application's (rare) sigaction calls, serialized by g_writing.
struct sigaction g_actions[2];
std::atomic<int> g_current{0};
std::atomic_flag g_writing = ATOMIC_FLAG_INIT;

SigactionFn next_sigaction() noexcept {
  static const auto next = reinterpret_cast<SigactionFn>(dlsym(RTLD_NEXT, "sigaction"));
  return next;
}

const struct sigaction &application_action() noexcept { return g_actions[g_current.load()]; }

void set_application_action(const struct sigaction &action) noexcept {
  while (g_writing.test_and_set(std::memory_order_acquire)) {
  }
  const int next = 1 - g_current.load();
  g_actions[next] = action;
  g_current.store(next);
  g_writing.clear(std::memory_order_release);
}

} // namespace

int real_sigaction(int signal, const struct sigaction *action, struct sigaction *old) noexcept {
  const SigactionFn next = next_sigaction();
  return next != nullptr ? next(signal, action, old) : -1;
}

void take_sigprof(const struct sigaction &current) noexcept {
  next_sigaction(); // resolved now, not in a handler
  set_application_action(current);
  g_taken.store(true);
}

void forward_sigprof(int signal, siginfo_t *info, void *context) noexcept {
  const struct sigaction action = application_action();
  if ((action.sa_flags & SA_SIGINFO) != 0) {
    if (action.sa_sigaction != nullptr) action.sa_sigaction(signal, info, context);
    return;
  }
  if (action.sa_handler == SIG_IGN) return;
  if (action.sa_handler == SIG_DFL) {
    // SIGPROF's default ends the process: as it would have without prof.
    struct sigaction fallback {};
    fallback.sa_handler = SIG_DFL;
    real_sigaction(SIGPROF, &fallback, nullptr);
    raise(SIGPROF);
    return;
  }
  action.sa_handler(signal);
}

} // namespace prof::python

// The application's calls, by symbol interposition (the plugin is preloaded).
extern "C" __attribute__((visibility("default"))) int
sigaction(int signal, const struct sigaction *action, struct sigaction *old) {
  if (signal != SIGPROF || !prof::python::g_taken.load())
    return prof::python::real_sigaction(signal, action, old);
  if (old != nullptr) *old = prof::python::application_action();
  if (action != nullptr) prof::python::set_application_action(*action);
  return 0;
}

extern "C" __attribute__((visibility("default"))) sighandler_t signal(int signal,
                                                                      sighandler_t handler) {
  if (signal != SIGPROF || !prof::python::g_taken.load()) {
    using SignalFn = sighandler_t (*)(int, sighandler_t);
    static const auto next = reinterpret_cast<SignalFn>(dlsym(RTLD_NEXT, "signal"));
    return next != nullptr ? next(signal, handler) : SIG_ERR;
  }
  struct sigaction action {};
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART; // signal()'s BSD semantics, as glibc gives them
  sigemptyset(&action.sa_mask);
  struct sigaction old {};
  if (sigaction(signal, &action, &old) != 0) return SIG_ERR;
  if ((old.sa_flags & SA_SIGINFO) == 0) return old.sa_handler;
  // signal() can only say so in its own type, as glibc's does.
  return reinterpret_cast<sighandler_t>(reinterpret_cast<void (*)()>(old.sa_sigaction));
}
