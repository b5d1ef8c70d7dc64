#include "tools/agent/unfinished_answers.hpp"

#include "core/session_clock.hpp"
#include "tools/agent/quiet_thread.hpp"

#include <ctime>
#include <linux/futex.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace prof::agent {
namespace {

// The word lies in memory shared with prof: a shared (not private) futex.
// A wait ends every 10 s too: a stop that came just before it began is seen.
void futex(std::atomic<uint32_t> &word, int op, uint32_t value) {
  const timespec ten_seconds{10, 0};
  syscall(SYS_futex, reinterpret_cast<uint32_t *>(&word), op, value,
          op == FUTEX_WAIT ? &ten_seconds : nullptr, nullptr, 0);
}

void answer_dumps(AgentState *state, const std::function<void(uint64_t)> &answer) {
  core::ShmHeader &header = *state->region.header();
  uint32_t seen = header.unfinished_asked.load(std::memory_order_acquire);
  while (true) {
    futex(header.unfinished_asked, FUTEX_WAIT, seen); // at once when it moved already
    if (state->answers_stop.load() || state->orphaned.load()) return;
    const uint32_t asked = header.unfinished_asked.load(std::memory_order_acquire);
    if (asked == seen) continue;
    seen = asked;
    answer(core::session_now_ns());
    header.unfinished_told.store(asked, std::memory_order_release);
  }
}

} // namespace

bool start_unfinished_answers(AgentState &state, std::function<void(uint64_t now)> answer,
                              std::string *error) {
  AgentState *at = &state;
  return start_quiet_thread(
      "prof-unfinished", [at, answer = std::move(answer)] { answer_dumps(at, answer); }, error);
}

void stop_unfinished_answers(AgentState &state) {
  state.answers_stop.store(true);
  futex(state.region.header()->unfinished_asked, FUTEX_WAKE, 1);
}

} // namespace prof::agent
