#include "recording_guard.hpp"

#include <linux/membarrier.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <ctime>

namespace prof::mpi {
namespace {

constexpr size_t kSlots = 1024; // threads recording at once; past that, the counter
RecordingSlot *slots() {
  // Never freed: a thread that exits leaves its slot free, not dangling.
  static RecordingSlot table[kSlots];
  return table;
}
std::atomic<bool> g_fast{false}; // membarrier registered
std::atomic<int> g_counted{0};   // recordings of threads without a slot
__thread RecordingSlot *t_slot __attribute__((tls_model("initial-exec")));

// Gives the thread's slot back when it exits (registered on its first claim).
struct SlotRelease {
  ~SlotRelease() {
    if (t_slot == nullptr) return;
    t_slot->call_begin.store(0, std::memory_order_relaxed);
    t_slot->owned.store(0, std::memory_order_release);
    t_slot = nullptr;
  }
};

long membarrier(int command) { return syscall(SYS_membarrier, command, 0, 0); }

void pause_briefly() {
  timespec pause{0, 20000};
  nanosleep(&pause, nullptr);
}

RecordingSlot *own_slot() noexcept {
  if (t_slot != nullptr) return t_slot;
  for (size_t i = 0; i < kSlots; ++i) {
    uint32_t free = 0;
    if (slots()[i].owned.compare_exchange_strong(free, 1, std::memory_order_acq_rel)) {
      thread_local SlotRelease release; // its destructor runs at the thread's exit
      (void)release;
      return t_slot = &slots()[i];
    }
  }
  return nullptr;
}

} // namespace

void prepare_recording_guard() {
  if (g_fast.load(std::memory_order_acquire)) return;
  const long supported = membarrier(MEMBARRIER_CMD_QUERY);
  if (supported > 0 && (supported & MEMBARRIER_CMD_PRIVATE_EXPEDITED) &&
      membarrier(MEMBARRIER_CMD_REGISTER_PRIVATE_EXPEDITED) == 0)
    g_fast.store(true, std::memory_order_release);
}

RecordingSlot *recording_slots(size_t *count) noexcept {
  *count = kSlots;
  return slots();
}

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
  if (t_slot != nullptr) t_slot->call_begin.store(0, std::memory_order_release);
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
    for (size_t i = 0; i < kSlots; ++i)
      while (slots()[i].busy.load(std::memory_order_acquire) != 0)
        pause_briefly();
  }
  while (g_counted.load(std::memory_order_seq_cst) != 0)
    pause_briefly();
}

void reset_recording_guard_after_fork() {
  g_counted.store(0, std::memory_order_relaxed);
  for (size_t i = 0; i < kSlots; ++i) {
    slots()[i].busy.store(0, std::memory_order_relaxed);
    slots()[i].call_begin.store(0, std::memory_order_relaxed);
  }
}

} // namespace prof::mpi
