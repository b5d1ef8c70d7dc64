#include "core/plugin_host/call_time_limit.hpp"

#include <algorithm>
#include <atomic>
#include <csignal>
#include <cstring>
#include <unistd.h>

namespace prof::core {

namespace {
// The timer's signal carries a slot index, never a pointer: a signal sent as
// the call returns may arrive after the watch ended, and then finds its slot
// no longer watching.
constexpr int kSlots = 16;

struct Slot {
  std::atomic<bool> taken{false};
  std::atomic<bool> watching{false};
  char line[512] = {};
};
Slot slots[kSlots];

int limit_signal() { return SIGRTMIN + 3; }

void on_limit(int, siginfo_t *info, void *) {
  const int index = info->si_value.sival_int;
  if (index < 0 || index >= kSlots || !slots[index].watching.load()) return;
  (void)!write(STDERR_FILENO, slots[index].line, std::strlen(slots[index].line));
  _exit(1);
}

bool handler_installed() {
  static const bool installed = [] {
    struct sigaction action {};
    action.sa_sigaction = on_limit;
    action.sa_flags = SA_SIGINFO | SA_RESTART;
    sigemptyset(&action.sa_mask);
    return sigaction(limit_signal(), &action, nullptr) == 0;
  }();
  return installed;
}
} // namespace

CallTimeLimit::CallTimeLimit(const std::string &what, std::chrono::milliseconds limit) {
  if (!handler_installed()) return;
  for (int i = 0; i < kSlots && slot_ < 0; ++i)
    if (!slots[i].taken.exchange(true)) slot_ = i;
  if (slot_ < 0) return;
  Slot &slot = slots[slot_];
  const std::string line =
      "prof: " + what + " did not return within " +
      std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) +
      " s; the plugin hangs, and prof gives up\n";
  const size_t length = std::min(line.size(), sizeof slot.line - 1);
  std::memcpy(slot.line, line.data(), length);
  slot.line[length] = '\0';
  sigevent event{};
  event.sigev_notify = SIGEV_SIGNAL;
  event.sigev_signo = limit_signal();
  event.sigev_value.sival_int = slot_;
  if (timer_create(CLOCK_MONOTONIC, &event, &timer_) != 0) {
    slot.taken.store(false);
    slot_ = -1;
    return;
  }
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(limit);
  itimerspec when{};
  when.it_value.tv_sec = seconds.count();
  when.it_value.tv_nsec = std::chrono::nanoseconds(limit - seconds).count();
  slot.watching.store(true);
  timer_settime(timer_, 0, &when, nullptr);
}

CallTimeLimit::~CallTimeLimit() {
  if (slot_ < 0) return;
  slots[slot_].watching.store(false);
  timer_delete(timer_);
  slots[slot_].taken.store(false);
}

} // namespace prof::core
