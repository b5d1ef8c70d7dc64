// Step-aligned windows (--capture-steps K [--at-step S]): every process's
// report holds the same steps S to S+K-1. Fed the processes' positions (the
// steps each had ended when it joined) and their step boundaries in the
// order they were posted, it says when the window opens (the first process
// to begin step S) and closes (the last one to end step S+K-1). Without
// --at-step, S is picked past every process's current step once all have
// told their positions.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace prof::core {

class StepAlignment {
public:
  enum class Action { None, Open, Close };

  /// `at_step` 0: picked; `expected`: the processes that will tell their
  /// positions (0 when prof launched them and they start at step 1).
  StepAlignment(uint64_t at_step, uint64_t count, size_t expected);

  /// Only `expected` processes will tell their positions (some asked did not join).
  void expect(size_t expected) { expected_ = expected; }
  /// Process `pid` joined having ended `steps` steps.
  void position(int pid, uint64_t steps);
  /// Process `pid` ended step `number` at `ts`: whether the window opens or closes.
  Action boundary(int pid, uint64_t number, uint64_t ts);
  /// Picks S when it is still open and every expected process told its
  /// position (or `now_or_never`); whether S is known.
  bool pick(bool now_or_never);

  uint64_t first_step() const { return first_; } ///< S; 0 until picked
  uint64_t last_step() const { return first_ == 0 ? 0 : first_ + count_ - 1; }
  /// "processes at steps 3 to 5" when S was picked (what it was picked past).
  std::string positions_text() const;
  /// Processes already in or past step S when they joined: their reports
  /// cannot hold all the steps.
  const std::map<int, uint64_t> &late() const { return late_; }

  /// When each process that began step S did (session clock), and ended
  /// step S+K-1 (UINT64_MAX while it has not).
  struct Span {
    uint64_t begin = 0;
    uint64_t end = UINT64_MAX;
  };
  const std::map<int, Span> &spans() const { return spans_; }

private:
  bool first_heard(int pid, uint64_t steps);

  uint64_t first_ = 0;
  uint64_t count_ = 0;
  size_t expected_ = 0;
  std::map<int, uint64_t> ended_; ///< steps each process ended, as last heard
  std::map<int, uint64_t> late_;
  std::set<int> finished_;
  std::map<int, Span> spans_; ///< the processes that began step S
  bool open_ = false, closed_ = false;
};

} // namespace prof::core
