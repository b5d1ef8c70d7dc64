#include "recording_guard.hpp"

#include <prof/thread_slots.hpp>

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

namespace prof::mpi {
namespace {

constexpr size_t kSlots = 1024; // threads recording at once; past that, the counter
using Slots = ThreadSlots<RecordingSlot, kSlots>;
std::atomic<bool> g_fast{false}; // membarrier registered
std::atomic<int> g_counted{0};   // recordings of threads without a slot

long membarrier(int command) { return syscall(SYS_membarrier, command, 0, 0); }

void pause_briefly() {
  timespec pause{0, 20000};
  nanosleep(&pause, nullptr);
}

RecordingSlot *own_slot() noexcept { return Slots::own(); }

} // namespace

void prepare_recording_guard() {
  Slots::prepare();
  if (g_fast.load(std::memory_order_acquire)) return;
  const long supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
    g_fast.store(true, std::memory_order_release);
}

std::span<RecordingSlot> recording_slots() noexcept { return Slots::all(); }

void open_call_begins(const OpenCall &call) noexcept {
  RecordingSlot *slot = own_slot();
  if (slot == nullptr) return;
  slot->call_begin.store(0, std::memory_order_relaxed); // a reader between the stores sees none
  std::atomic_thread_fence(std::memory_order_release);
  slot->call_track.store(call.track, std::memory_order_relaxed);
  slot->call_function.store(call.function, std::memory_order_relaxed);
  slot->call_comm.store(call.comm, std::memory_order_relaxed);
  slot->call_sequence.store(call.sequence, std::memory_order_relaxed);
  slot->call_recorder.store(call.recorder, std::memory_order_relaxed);
  slot->call_begin.store(call.begin, std::memory_order_release);
}

void open_call_ends() noexcept {
  if (RecordingSlot *slot = own_slot()) slot->call_begin.store(0, std::memory_order_release);
}

RecordingSlot *RecordingMark::claim() noexcept {
  return g_fast.load(std::memory_order_acquire) ? own_slot() : nullptr;
}

RecordingMark::RecordingMark() noexcept : slot_(claim()) {
  if (slot_ != nullptr) {
    slot_->busy.store(1, std::memory_order_relaxed);
    // The store may wait in this CPU's store buffer past the recorder's load:
    // wait_for_recordings' membarrier drains it. Only the compiler is held here.
    std::atomic_signal_fence(std::memory_order_seq_cst);
  } else {
    g_counted.fetch_add(1, std::memory_order_seq_cst);
  }
}

RecordingMark::~RecordingMark() {
  if (slot_ != nullptr)
    slot_->busy.store(0, std::memory_order_release);
  else
    g_counted.fetch_sub(1, std::memory_order_release);
}

void wait_for_recordings() {
  if (g_fast.load(std::memory_order_acquire)) {
    // Every thread passes a full barrier: a mark stored before its thread
    // loaded the old recorder is visible now, and a later load sees none.
    membarrier(MEMBARRIER_CMD_PRIVATE_EXPEDITED);
    for (const RecordingSlot &slot : Slots::all())
      while (slot.busy.load(std::memory_order_acquire) != 0)
        pause_briefly();
  }
  while (g_counted.load(std::memory_order_seq_cst) != 0)
    pause_briefly();
}

void reset_recording_guard_after_fork() {
  g_counted.store(0, std::memory_order_relaxed);
  Slots::keep_only_calling_thread();
  for (RecordingSlot &slot : Slots::all()) {
    slot.busy.store(0, std::memory_order_relaxed);
    slot.call_begin.store(0, std::memory_order_relaxed);
  }
}

} // namespace prof::mpi
