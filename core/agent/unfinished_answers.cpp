#include "core/agent/unfinished_answers.hpp"

#include "core/runtime/session_clock.hpp"
#include "core/runtime/shared_futex.hpp"
#include "core/agent/quiet_thread.hpp"

namespace prof::agent {
namespace {

void answer_dumps(AgentState *state, const std::function<void(uint64_t)> &answer,
                  const std::function<void(uint64_t)> &probe) {
  constexpr uint64_t kProbeNs = 1'000'000'000;
  core::ShmHeader &header = *state->region.header();
  uint32_t seen = header.unfinished_asked.load(std::memory_order_acquire);
  uint64_t probed = core::session_now_ns();
  while (true) {
    // Every 10 s too: a stop that came just before the wait began is seen.
    core::shared_futex_wait(header.unfinished_asked, seen,
                            probe ? timespec{1, 0} : timespec{10, 0});
    if (state->answers_stop.load() || state->orphaned.load()) return;
    const uint64_t now = core::session_now_ns();
    if (probe && now >= probed + kProbeNs) {
      probed = now;
      probe(now);
    }
    const uint32_t asked = header.unfinished_asked.load(std::memory_order_acquire);
    if (asked == seen) continue;
    seen = asked;
    answer(now);
    header.unfinished_told.store(asked, std::memory_order_release);
  }
}

} // namespace

bool start_unfinished_answers(AgentState &state, std::function<void(uint64_t now)> answer,
                              std::function<void(uint64_t now)> probe, std::string *error) {
  AgentState *at = &state;
  return start_quiet_thread(
      "prof-unfinished",
      [at, answer = std::move(answer), probe = std::move(probe)] {
        answer_dumps(at, answer, probe);
      },
      error);
}

void stop_unfinished_answers(AgentState &state) {
  state.answers_stop.store(true);
  core::shared_futex_wake(state.region.header()->unfinished_asked, 1);
}

} // namespace prof::agent
