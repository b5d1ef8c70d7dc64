#include "runtime_state.hpp"

#include <chrono>
#include <cstdlib>

namespace prof::gcusim {
namespace {
thread_local uint32_t current_device_of_thread = 0;
} // namespace

RuntimeState &RuntimeState::instance() {
  static RuntimeState *state = [] {
    auto *created = new RuntimeState(); // leaked, like the Simulator
    // Registered at the first runtime call: runs before the destructors of
    // the application's static objects made before it.
    std::atexit([] { RuntimeState::instance().drain_at_exit(); });
    return created;
  }();
  return *state;
}

RuntimeState::RuntimeState()
    : simulator_(Simulator::instance()), memory_(simulator_.device_count()),
      default_streams_(simulator_.device_count()) {}

uint32_t RuntimeState::current_device() noexcept { return current_device_of_thread; }

void RuntimeState::set_current_device(uint32_t device) noexcept {
  current_device_of_thread = device;
}

std::shared_ptr<CommandStream> RuntimeState::default_stream(uint32_t device) {
  std::lock_guard lock(mutex_);
  std::shared_ptr<CommandStream> &stream = default_streams_[device];
  if (!stream) stream = std::make_shared<CommandStream>(device, simulator_.next_stream_id());
  return stream;
}

std::shared_ptr<CommandStream> RuntimeState::stream(gcuStream_t handle) {
  if (handle == nullptr) return default_stream(current_device());
  std::lock_guard lock(mutex_);
  auto it = streams_.find(handle);
  return it == streams_.end() ? nullptr : it->second;
}

gcuStream_t RuntimeState::create_stream(uint32_t device) {
  auto stream = std::make_shared<CommandStream>(device, simulator_.next_stream_id());
  auto handle = reinterpret_cast<gcuStream_t>(stream.get());
  std::lock_guard lock(mutex_);
  streams_.emplace(handle, std::move(stream));
  return handle;
}

std::shared_ptr<CommandStream> RuntimeState::remove_stream(gcuStream_t handle) {
  std::lock_guard lock(mutex_);
  auto it = streams_.find(handle);
  if (it == streams_.end()) return nullptr;
  std::shared_ptr<CommandStream> stream = std::move(it->second);
  streams_.erase(it);
  return stream;
}

std::vector<std::shared_ptr<CommandStream>>
RuntimeState::streams_of(std::optional<uint32_t> device) {
  std::vector<std::shared_ptr<CommandStream>> streams;
  std::lock_guard lock(mutex_);
  for (auto &stream : default_streams_)
    if (stream && (!device || stream->device() == *device)) streams.push_back(stream);
  for (auto &[handle, stream] : streams_)
    if (!device || stream->device() == *device) streams.push_back(stream);
  return streams;
}

void RuntimeState::synchronize_device(uint32_t device) {
  for (auto &stream : streams_of(device))
    stream->synchronize();
}

void RuntimeState::drain_at_exit() {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  for (auto &stream : streams_of(std::nullopt))
    stream->synchronize_until(deadline);
  CommandStream::halt_all();
}

gcuEvent_t RuntimeState::create_event() {
  auto event = std::make_shared<SimEvent>();
  auto handle = reinterpret_cast<gcuEvent_t>(event.get());
  std::lock_guard lock(mutex_);
  events_.emplace(handle, std::move(event));
  return handle;
}

std::shared_ptr<SimEvent> RuntimeState::event(gcuEvent_t handle) {
  std::lock_guard lock(mutex_);
  auto it = events_.find(handle);
  return it == events_.end() ? nullptr : it->second;
}

bool RuntimeState::remove_event(gcuEvent_t handle) {
  std::lock_guard lock(mutex_);
  return events_.erase(handle) > 0;
}

} // namespace prof::gcusim
