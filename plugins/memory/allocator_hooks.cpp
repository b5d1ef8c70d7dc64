#include "allocator_hooks.hpp"

#include "prof_code.hpp"
#include "stack_sampler.hpp"

#include <prof/tsc_clock.hpp>

#include <dlfcn.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <new>

#define PROF_HOOK extern "C" __attribute__((visibility("default")))
#define PROF_HOOK_CXX __attribute__((visibility("default")))
#define PROF_CALLER reinterpret_cast<uintptr_t>(__builtin_return_address(0))

namespace prof::memory {
namespace {

// Initial-exec: the plugin is preloaded, so its thread-locals are in the
// static block, reached without a call that might allocate.
#define PROF_TLS thread_local __attribute__((tls_model("initial-exec")))
PROF_TLS bool t_busy = false;        ///< inside the accounting, or a thread prof ignores
PROF_TLS bool t_resolving = false;   ///< looking up the next allocator
PROF_TLS uintptr_t t_last_block = 0; ///< the thread's last allocation, until the next free
PROF_TLS int t_tid = 0;              ///< the thread's id, once the event log asked for it

constinit HeapTable g_heap;
constinit HeapTable g_mappings;

// dlsym may allocate before the next allocator is known: from here, never
// freed. A block's size is kept before it, for realloc.
alignas(64) char g_arena[256 * 1024];
std::atomic<size_t> g_arena_used{0};

bool in_arena(const void *p) {
  return p >= static_cast<const void *>(g_arena) &&
         p < static_cast<const void *>(g_arena + sizeof g_arena);
}

void *arena_alloc(size_t size, size_t alignment = 16) {
  alignment = std::max<size_t>(alignment, 16);
  size_t used = g_arena_used.load(std::memory_order_relaxed);
  for (;;) {
    const size_t start = (used + 16 + alignment - 1) & ~(alignment - 1);
    if (start + size > sizeof g_arena || start + size < start) return nullptr;
    if (g_arena_used.compare_exchange_weak(used, start + size, std::memory_order_relaxed)) {
      std::memcpy(g_arena + start - sizeof(size_t), &size, sizeof size);
      return g_arena + start; // zero: never handed out before
    }
  }
}

size_t arena_size(const void *p) {
  size_t size;
  std::memcpy(&size, static_cast<const char *>(p) - sizeof size, sizeof size);
  return size;
}

struct Next {
  void *(*malloc)(size_t);
  void (*free)(void *);
  void *(*calloc)(size_t, size_t);
  void *(*realloc)(void *, size_t);
  int (*posix_memalign)(void **, size_t, size_t);
  void *(*aligned_alloc)(size_t, size_t);
  void *(*memalign)(size_t, size_t);
  void *(*valloc)(size_t);
  void *(*pvalloc)(size_t);
  void *(*mmap)(void *, size_t, int, int, int, off_t);
  void *(*mmap64)(void *, size_t, int, int, int, off_t);
  int (*munmap)(void *, size_t);
};
constinit Next g_next{};
std::atomic<int> g_resolved{0}; ///< 0 not yet, 1 under way, 2 done

template <class Fn> void find_next(Fn &fn, const char *name) {
  fn = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, name));
}

const Next &next() {
  if (g_resolved.load(std::memory_order_acquire) == 2) [[likely]]
    return g_next;
  if (t_resolving) return g_next; // dlsym allocating: the arena serves it
  int expected = 0;
  if (g_resolved.compare_exchange_strong(expected, 1, std::memory_order_acq_rel)) {
    t_resolving = true;
    Next found{};
    find_next(found.malloc, "malloc");
    find_next(found.free, "free");
    find_next(found.calloc, "calloc");
    find_next(found.realloc, "realloc");
    find_next(found.posix_memalign, "posix_memalign");
    find_next(found.aligned_alloc, "aligned_alloc");
    find_next(found.memalign, "memalign");
    find_next(found.valloc, "valloc");
    find_next(found.pvalloc, "pvalloc");
    find_next(found.mmap, "mmap");
    find_next(found.mmap64, "mmap64");
    find_next(found.munmap, "munmap");
    g_next = found;
    t_resolving = false;
    g_resolved.store(2, std::memory_order_release);
  } else {
    while (g_resolved.load(std::memory_order_acquire) != 2)
      __builtin_ia32_pause();
  }
  return g_next;
}

uint64_t now_ns() { return TscClock::now_ns(); }

// The calling thread's id for the event log (0 while it logs nothing).
int logged_tid() {
  if (!g_heap.logs_events()) [[likely]]
    return 0;
  if (t_tid == 0) t_tid = static_cast<int>(syscall(SYS_gettid));
  return t_tid;
}

// Across fork() the forking thread counts nothing: the other fork handlers
// may allocate while the tables are locked.
PROF_TLS bool t_busy_before_fork = false;

void lock_tables() {
  t_busy_before_fork = t_busy;
  t_busy = true;
  g_heap.lock_all();
  g_mappings.lock_all();
  sampled_stacks().lock();
}
void unlock_tables() {
  sampled_stacks().unlock();
  g_mappings.unlock_all();
  g_heap.unlock_all();
  t_busy = t_busy_before_fork;
}
void start_child_tables() {
  g_heap.forget_all();
  g_mappings.forget_all();
  t_last_block = 0;
  t_tid = 0; // the child's thread has its own
  unlock_tables();
}

// The tables stay whole across fork(), and a child starts its own; threads
// write the heap's ledger in lanes of their own; prof's code is known from
// its first allocation: all set up when the plugin is loaded.
__attribute__((constructor)) void set_up_tables() {
  pthread_atfork(&lock_tables, &unlock_tables, &start_child_tables);
  PeakLedger::use_thread_lanes();
  prof_code().refresh();
}

void account_allocation(void *p, size_t size, uintptr_t site) {
  if (p == nullptr || t_busy || in_arena(p)) return;
  const NotAccounted inside;
  if (prof_code().contains(site)) site = kProfSite;
  const uint32_t stack = site == kProfSite ? 0 : sample_stack(size, site);
  g_heap.add({reinterpret_cast<uintptr_t>(p), size, site, stack}, &now_ns, logged_tid());
  t_last_block = reinterpret_cast<uintptr_t>(p);
}

void account_free(void *p) {
  if (t_busy) return;
  const NotAccounted inside;
  const auto address = reinterpret_cast<uintptr_t>(p);
  g_heap.remove(address, nullptr, address == t_last_block, logged_tid());
  t_last_block = 0;
}

void *next_malloc(size_t size) {
  const Next &n = next();
  return n.malloc ? n.malloc(size) : arena_alloc(size);
}

void next_free(void *p) {
  if (p == nullptr || in_arena(p)) return;
  if (const Next &n = next(); n.free) n.free(p);
}

void *next_aligned(size_t alignment, size_t size) {
  const Next &n = next();
  if (n.posix_memalign == nullptr) return arena_alloc(size, alignment);
  void *p = nullptr;
  return n.posix_memalign(&p, alignment, size) == 0 ? p : nullptr;
}

void *realloc_impl(void *p, size_t size, uintptr_t site) {
  if (p != nullptr && in_arena(p)) {
    void *q = next_malloc(size);
    if (q != nullptr) std::memcpy(q, p, std::min(size, arena_size(p)));
    account_allocation(q, size, site);
    return q;
  }
  const Next &n = next();
  if (n.realloc == nullptr) return arena_alloc(size);
  // Out of the table before: once realloc has freed it, another thread may
  // get the address back and record it.
  Block old;
  bool known = false;
  if (p != nullptr && !t_busy) {
    const NotAccounted inside;
    known = g_heap.remove(reinterpret_cast<uintptr_t>(p), &old, false, logged_tid());
  }
  void *q = n.realloc(p, size);
  if (q != nullptr) {
    account_allocation(q, size, site);
  } else if (known && size != 0 && !t_busy) { // failed: the block lives on as it was
    const NotAccounted inside;
    g_heap.add(old, &now_ns, logged_tid());
  }
  return q;
}

// operator new: the next malloc, the new-handler while it fails.
void *new_impl(size_t size, size_t alignment, bool nothrow, uintptr_t site) {
  for (;;) {
    void *p = alignment > alignof(std::max_align_t) ? next_aligned(alignment, size ? size : 1)
                                                    : next_malloc(size ? size : 1);
    if (p != nullptr) {
      account_allocation(p, size, site);
      return p;
    }
    std::new_handler handler = std::get_new_handler();
    if (handler == nullptr) {
      if (nothrow) return nullptr;
      throw std::bad_alloc();
    }
    if (!nothrow) {
      handler();
      continue;
    }
    try {
      handler();
    } catch (...) {
      return nullptr;
    }
  }
}

void delete_impl(void *p) {
  if (p == nullptr) return;
  account_free(p);
  next_free(p);
}

void account_mapping(void *p, size_t length, int flags) {
  if (p == MAP_FAILED || (flags & MAP_ANONYMOUS) == 0 || t_busy) return;
  const NotAccounted inside;
  g_mappings.add({reinterpret_cast<uintptr_t>(p), length, 0, 0}, nullptr);
}

// Whatever of the recorded mappings [start, start + length) covers is gone;
// the parts of them outside it stay (an allocator trims a mapping's head and
// tail to align it, or unmaps one page of it).
void forget_unmapped(uintptr_t start, size_t length) {
  const uintptr_t end = start + length < start ? UINTPTR_MAX : start + length;
  Block mapped;
  if (g_mappings.remove(start, &mapped)) {
    if (mapped.size == length) return; // the usual: all of one mapping
    if (mapped.size > length) {        // its head: the rest stays
      g_mappings.add({end, mapped.size - length, 0, 0}, nullptr);
      return;
    }
  }
  while (g_mappings.find_overlapping(start, end, &mapped)) {
    if (!g_mappings.remove(mapped.address, &mapped)) continue; // another thread's munmap took it
    const uintptr_t mapped_end = mapped.address + mapped.size;
    if (mapped.address < start)
      g_mappings.add({mapped.address, start - mapped.address, 0, 0}, nullptr);
    if (mapped_end > end) g_mappings.add({end, mapped_end - end, 0, 0}, nullptr);
  }
}

} // namespace

HeapTable &process_heap() { return g_heap; }

int64_t mapped_bytes() { return g_mappings.totals().in_use; }

void ignore_calling_thread() { t_busy = true; }

NotAccounted::NotAccounted() : was_(t_busy) { t_busy = true; }
NotAccounted::~NotAccounted() { t_busy = was_; }

std::string hooks_problem() {
  void *const found = dlsym(RTLD_DEFAULT, "malloc");
  auto *const found_free = reinterpret_cast<void (*)(void *)>(dlsym(RTLD_DEFAULT, "free"));
  if (found == nullptr || found_free == nullptr) return "";
  // The malloc the program calls reaches these hooks, directly or through its
  // own PLT entry (a non-PIE program that takes malloc's address has one,
  // which dlsym returns): a block from it is in the table.
  const bool was_busy = t_busy;
  t_busy = false;
  void *const probe = reinterpret_cast<void *(*)(size_t)>(found)(24);
  t_busy = was_busy;
  if (probe == nullptr) return "";
  bool seen = false;
  {
    const NotAccounted inside;
    seen = g_heap.remove(reinterpret_cast<uintptr_t>(probe), nullptr);
    found_free(probe);
  }
  if (seen) return "";
  Dl_info first{};
  return std::string("malloc is defined by ") +
         (dladdr(found, &first) != 0 && first.dli_fname ? first.dli_fname : "the program") +
         ", which comes before prof's: its allocations are not profiled";
}

} // namespace prof::memory

using namespace prof::memory;

PROF_HOOK void *malloc(size_t size) {
  void *p = next_malloc(size);
  account_allocation(p, size, PROF_CALLER);
  return p;
}

PROF_HOOK void free(void *p) {
  if (p == nullptr || in_arena(p)) return;
  account_free(p);
  next_free(p);
}

PROF_HOOK void *calloc(size_t count, size_t size) {
  const Next &n = next();
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  void *p = n.calloc ? n.calloc(count, size) : arena_alloc(bytes);
  account_allocation(p, bytes, PROF_CALLER);
  return p;
}

PROF_HOOK void *realloc(void *p, size_t size) { return realloc_impl(p, size, PROF_CALLER); }

PROF_HOOK void *reallocarray(void *p, size_t count, size_t size) {
  size_t bytes;
  if (__builtin_mul_overflow(count, size, &bytes)) {
    errno = ENOMEM;
    return nullptr;
  }
  return realloc_impl(p, bytes, PROF_CALLER);
}

PROF_HOOK int posix_memalign(void **out, size_t alignment, size_t size) {
  const Next &n = next();
  if (n.posix_memalign == nullptr) {
    *out = arena_alloc(size, alignment);
    return *out ? 0 : ENOMEM;
  }
  const int result = n.posix_memalign(out, alignment, size);
  if (result == 0) account_allocation(*out, size, PROF_CALLER);
  return result;
}

PROF_HOOK void *aligned_alloc(size_t alignment, size_t size) {
  const Next &n = next();
  void *p = n.aligned_alloc ? n.aligned_alloc(alignment, size) : arena_alloc(size, alignment);
  account_allocation(p, size, PROF_CALLER);
  return p;
}

PROF_HOOK void *memalign(size_t alignment, size_t size) {
  const Next &n = next();
  void *p = n.memalign ? n.memalign(alignment, size) : arena_alloc(size, alignment);
  account_allocation(p, size, PROF_CALLER);
  return p;
}

PROF_HOOK void *valloc(size_t size) {
  const Next &n = next();
  void *p = n.valloc ? n.valloc(size) : arena_alloc(size, 4096);
  account_allocation(p, size, PROF_CALLER);
  return p;
}

PROF_HOOK void *pvalloc(size_t size) {
  const Next &n = next();
  void *p = n.pvalloc ? n.pvalloc(size) : arena_alloc(size, 4096);
  account_allocation(p, size, PROF_CALLER);
  return p;
}

PROF_HOOK void *mmap(void *address, size_t length, int protection, int flags, int fd,
                     off_t offset) {
  const Next &n = next();
  if (n.mmap == nullptr) {
    errno = ENOSYS;
    return MAP_FAILED;
  }
  void *p = n.mmap(address, length, protection, flags, fd, offset);
  account_mapping(p, length, flags);
  return p;
}

PROF_HOOK void *mmap64(void *address, size_t length, int protection, int flags, int fd,
                       off_t offset) {
  const Next &n = next();
  auto *fn = n.mmap64 ? n.mmap64 : n.mmap;
  if (fn == nullptr) {
    errno = ENOSYS;
    return MAP_FAILED;
  }
  void *p = fn(address, length, protection, flags, fd, offset);
  account_mapping(p, length, flags);
  return p;
}

PROF_HOOK int munmap(void *address, size_t length) {
  const Next &n = next();
  if (n.munmap == nullptr) {
    errno = ENOSYS;
    return -1;
  }
  if (!t_busy) {
    const NotAccounted inside;
    forget_unmapped(reinterpret_cast<uintptr_t>(address), length);
  }
  return n.munmap(address, length);
}

PROF_HOOK_CXX void *operator new(size_t size) { return new_impl(size, 0, false, PROF_CALLER); }
PROF_HOOK_CXX void *operator new[](size_t size) { return new_impl(size, 0, false, PROF_CALLER); }
PROF_HOOK_CXX void *operator new(size_t size, const std::nothrow_t &) noexcept {
  return new_impl(size, 0, true, PROF_CALLER);
}
PROF_HOOK_CXX void *operator new[](size_t size, const std::nothrow_t &) noexcept {
  return new_impl(size, 0, true, PROF_CALLER);
}
PROF_HOOK_CXX void *operator new(size_t size, std::align_val_t alignment) {
  return new_impl(size, static_cast<size_t>(alignment), false, PROF_CALLER);
}
PROF_HOOK_CXX void *operator new[](size_t size, std::align_val_t alignment) {
  return new_impl(size, static_cast<size_t>(alignment), false, PROF_CALLER);
}
PROF_HOOK_CXX void *operator new(size_t size, std::align_val_t alignment,
                                 const std::nothrow_t &) noexcept {
  return new_impl(size, static_cast<size_t>(alignment), true, PROF_CALLER);
}
PROF_HOOK_CXX void *operator new[](size_t size, std::align_val_t alignment,
                                   const std::nothrow_t &) noexcept {
  return new_impl(size, static_cast<size_t>(alignment), true, PROF_CALLER);
}
PROF_HOOK_CXX void operator delete(void *p) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete[](void *p) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete(void *p, size_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete[](void *p, size_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete(void *p, std::align_val_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete[](void *p, std::align_val_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete(void *p, size_t, std::align_val_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete[](void *p, size_t, std::align_val_t) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete(void *p, const std::nothrow_t &) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete[](void *p, const std::nothrow_t &) noexcept { delete_impl(p); }
PROF_HOOK_CXX void operator delete(void *p, std::align_val_t, const std::nothrow_t &) noexcept {
  delete_impl(p);
}
PROF_HOOK_CXX void operator delete[](void *p, std::align_val_t, const std::nothrow_t &) noexcept {
  delete_impl(p);
}
