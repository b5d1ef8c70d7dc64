#include "activity_buffers.hpp"

#include <cstdlib>
#include <new>

namespace prof::cuda {

uint8_t *ActivityBuffers::take(size_t &size) {
  size = 0;
  size_t outstanding = outstanding_.load();
  do {
    if (outstanding + buffer_bytes_ > budget_bytes_) {
      ++refused_;
      return nullptr;
    }
  } while (!outstanding_.compare_exchange_weak(outstanding, outstanding + buffer_bytes_));
  void *buffer = std::aligned_alloc(kAlignment, buffer_bytes_);
  if (buffer == nullptr) {
    outstanding_ -= buffer_bytes_;
    ++refused_;
    return nullptr;
  }
  size = buffer_bytes_;
  return static_cast<uint8_t *>(buffer);
}

void ActivityBuffers::give_back(uint8_t *buffer) {
  if (buffer == nullptr) return;
  std::free(buffer);
  outstanding_ -= buffer_bytes_;
}

} // namespace prof::cuda
