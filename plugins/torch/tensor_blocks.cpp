#include "tensor_blocks.hpp"

namespace prof::torch {

uint64_t TensorBlocks::add(uintptr_t address, uint64_t bytes) {
  Shard &shard = shard_of(address);
  std::lock_guard lock(shard.mutex);
  auto [it, added] = shard.bytes.try_emplace(address, bytes);
  if (!added) { // a block freed unseen, its address reused
    live_.fetch_sub(it->second, std::memory_order_relaxed);
    it->second = bytes;
  }
  return live_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
}

std::optional<uint64_t> TensorBlocks::take(uintptr_t address) {
  Shard &shard = shard_of(address);
  std::lock_guard lock(shard.mutex);
  const auto it = shard.bytes.find(address);
  if (it == shard.bytes.end()) return std::nullopt;
  const uint64_t bytes = it->second;
  shard.bytes.erase(it);
  live_.fetch_sub(bytes, std::memory_order_relaxed);
  return bytes;
}

TensorBlocks &tensor_blocks() {
  static auto *blocks = new TensorBlocks; // never destroyed
  return *blocks;
}

} // namespace prof::torch
