// A fixed table of per-thread slots that other threads may read at any time
// (what each thread is inside, for a flight recorder's dump). A thread claims
// a slot on first use and gives it back when it exits; the table is never
// freed, so a reader never follows a dangling pointer. Claiming allocates
// nothing (a pthread key's destructor gives the slot back), so it is safe in
// an interposed call, whatever the thread was doing.
#ifndef PROF_THREAD_SLOTS_HPP
#define PROF_THREAD_SLOTS_HPP

#include <pthread.h>

#include <atomic>
#include <cstddef>
#include <span>

namespace prof {

/// `Slot` has a member `std::atomic<uint32_t> owned` (1 while a thread has
/// it), and may have `void claimed() noexcept`, called on the claiming
/// thread, and `void released() noexcept`, called as its thread gives it
/// back (that thread exits, or is not in a forked child), so that what the
/// slot said of a thread that is gone is not read again; the rest is the
/// user's. One table per (Slot, Count). The library
/// that holds a table stays loaded while threads own its slots (preloaded
/// plugins do).
template <class Slot, std::size_t Count> class ThreadSlots {
public:
  /// Makes the key that gives slots back; call before own(), from a plain
  /// context (a plugin's start). Idempotent.
  static void prepare() noexcept { pthread_once(&once_, &make_key); }

  /// The calling thread's slot, claimed on its first call; nullptr when every
  /// slot is taken (asked once per thread) or prepare() was not called.
  static Slot *own() noexcept {
    if (t_slot_ != nullptr) [[likely]]
      return t_slot_;
    return claim();
  }

  /// Every slot, owned or free.
  static std::span<Slot> all() noexcept { return {table(), Count}; }

  /// In a forked child, where only the calling thread exists: every other
  /// slot is given back.
  static void keep_only_calling_thread() noexcept {
    for (Slot &slot : all())
      if (&slot != t_slot_) release(slot);
  }

private:
  static Slot *table() noexcept {
    static Slot slots[Count];
    return slots;
  }

  static void make_key() noexcept {
    key_made_.store(pthread_key_create(&key_, &give_back) == 0, std::memory_order_release);
  }

  static void release(Slot &slot) noexcept {
    if constexpr (requires { slot.released(); }) slot.released();
    slot.owned.store(0, std::memory_order_release);
  }

  static void give_back(void *slot) noexcept {
    release(*static_cast<Slot *>(slot));
    t_slot_ = nullptr;
  }

  [[gnu::noinline]] static Slot *claim() noexcept {
    if (t_full_ || !key_made_.load(std::memory_order_acquire)) return nullptr;
    for (Slot &slot : all()) {
      uint32_t free = 0;
      if (slot.owned.compare_exchange_strong(free, 1, std::memory_order_acq_rel)) {
        // Keys below PTHREAD_KEY_2NDLEVEL_SIZE take no allocation; a later
        // one may, and failing, leaves the slot claimed for good.
        pthread_setspecific(key_, &slot);
        if constexpr (requires { slot.claimed(); }) slot.claimed();
        return t_slot_ = &slot;
      }
    }
    t_full_ = true;
    return nullptr;
  }

  static inline pthread_once_t once_ = PTHREAD_ONCE_INIT;
  static inline pthread_key_t key_;
  static inline std::atomic<bool> key_made_{false};
  // __thread rather than thread_local: a plain TLS access, without the
  // wrapper call C++ adds for variables that might need dynamic initialization.
  static inline __thread Slot *t_slot_ __attribute__((tls_model("initial-exec"))) = nullptr;
  static inline __thread bool t_full_ __attribute__((tls_model("initial-exec"))) = false;
};

} // namespace prof

#endif
