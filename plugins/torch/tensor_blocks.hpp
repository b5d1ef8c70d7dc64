// The blocks PyTorch's CPU allocator gave out while memory was recorded,
// with their sizes: a free names only its address, and its event repeats the
// allocation's bytes (event.h). Process-wide: a block may be freed under
// another recorder than the one that saw it allocated, or under none.
#ifndef PROF_PLUGINS_TORCH_TENSOR_BLOCKS_HPP
#define PROF_PLUGINS_TORCH_TENSOR_BLOCKS_HPP

#include <array>
#include <atomic>
#include <cstdint>
#include <mutex>
#include <optional>
#include <unordered_map>

namespace prof::torch {

class TensorBlocks {
public:
  /// Keeps a block; returns the bytes live in the table after it.
  uint64_t add(uintptr_t address, uint64_t bytes);
  /// Forgets a block: its bytes, or nothing for one never added.
  std::optional<uint64_t> take(uintptr_t address);
  /// Bytes live in the table.
  uint64_t live() const { return live_.load(std::memory_order_relaxed); }

private:
  static constexpr size_t kShards = 16; // frees on many threads rarely wait for each other
  struct Shard {
    std::mutex mutex;
    std::unordered_map<uintptr_t, uint64_t> bytes;
  };
  Shard &shard_of(uintptr_t address) { return shards_[(address >> 6) % kShards]; }
  std::array<Shard, kShards> shards_;
  std::atomic<uint64_t> live_{0};
};

/// The process's table (never destroyed: a tensor may be freed at exit).
TensorBlocks &tensor_blocks();

} // namespace prof::torch

#endif
