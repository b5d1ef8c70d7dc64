// A flight recorder dump waits for what the processes are inside: it asks
// the agents of each shared region (ShmHeader::unfinished_asked) to emit
// their plugins' unfinished slices, and is written at the first drain after
// they answered (their events drained by then), or after 1 s without them
// (a process that cannot answer).
#pragma once

#include "core/runtime/shm_layout.hpp"

#include <cstdint>
#include <vector>

namespace prof::core {

class UnfinishedAsk {
public:
  /// A region whose agents answer (AgentConfig::answers_dumps).
  void add(ShmHeader &header) { headers_.push_back(&header); }
  /// Asks every region; false when there is none (the dump is written at once).
  bool ask(uint64_t now);
  /// Before each drain while asking: whether the dump is written now.
  bool ready(uint64_t now);

  /// How long the answers of a region's other processes may lag its first.
  static constexpr uint64_t kLagNs = 100'000'000;
  static constexpr uint64_t kTimeoutNs = 1'000'000'000;

private:
  bool answered() const;

  std::vector<ShmHeader *> headers_;
  std::vector<uint32_t> asked_;
  uint64_t asked_at_ = 0;
  bool asking_ = false;
  bool drain_left_ = false; ///< answered: one more drain takes their events
};

} // namespace prof::core
