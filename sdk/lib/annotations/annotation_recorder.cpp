#include <prof/annotations/annotation_recorder.hpp>

#include <prof/profiler_api.h>
#include <prof/thread_track.hpp>
#include <prof/tsc_clock.hpp>

#include <pthread.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

namespace prof::annotations {
namespace {

constexpr uint64_t kClaimed = ~uint64_t{0};

// Bumped in a forked child: its threads need tracks of their own.
std::atomic<uint32_t> g_fork_generation{0};

// One thread's open push/pop ranges as emit_unfinished() reads them from
// another thread: a mirror of its stack, written by that thread only and
// read as a seqlock (an odd version: being written), all of it atomics.
// Slots are never freed: a thread that exits leaves its slot to the next.
struct OpenLevel {
  std::atomic<uint64_t> begin{0};
  std::atomic<prof_string_id> message{0};
  std::atomic<const Domain *> domain{nullptr};
};
struct OpenSlot {
  std::atomic<uint32_t> owned{0};
  std::atomic<uint32_t> version{0};
  std::atomic<const void *> recorder{nullptr};
  std::atomic<prof_track_id> track{0};
  std::atomic<int> depth{0};
  std::array<OpenLevel, AnnotationRecorder::kMaxDepth> levels;
  OpenSlot *next = nullptr; ///< set before the slot is published
};
std::atomic<OpenSlot *> g_open_slots{nullptr};
thread_local OpenSlot *t_open_slot = nullptr;

// Gives the thread's slot back when it exits (registered on its first claim).
struct OpenSlotRelease {
  ~OpenSlotRelease() {
    if (t_open_slot == nullptr) return;
    t_open_slot->depth.store(0, std::memory_order_relaxed);
    t_open_slot->owned.store(0, std::memory_order_release);
    t_open_slot = nullptr;
  }
};

OpenSlot &open_slot() {
  if (t_open_slot != nullptr) return *t_open_slot;
  thread_local OpenSlotRelease release; // its destructor runs at the thread's exit
  (void)release;
  for (OpenSlot *slot = g_open_slots.load(std::memory_order_acquire); slot; slot = slot->next) {
    uint32_t free = 0;
    if (slot->owned.compare_exchange_strong(free, 1, std::memory_order_acq_rel))
      return *(t_open_slot = slot);
  }
  auto *slot = new OpenSlot; // reachable from g_open_slots: never a leak
  slot->owned.store(1, std::memory_order_relaxed);
  slot->next = g_open_slots.load(std::memory_order_relaxed);
  while (!g_open_slots.compare_exchange_weak(slot->next, slot, std::memory_order_release,
                                             std::memory_order_relaxed)) {
  }
  return *(t_open_slot = slot);
}

/// Brackets the owning thread's changes to its slot.
class OpenSlotWrite {
public:
  explicit OpenSlotWrite(OpenSlot &slot)
      : slot_(slot), version_(slot.version.load(std::memory_order_relaxed)) {
    slot_.version.store(version_ + 1, std::memory_order_relaxed);
    std::atomic_thread_fence(std::memory_order_release);
  }
  ~OpenSlotWrite() { slot_.version.store(version_ + 2, std::memory_order_release); }
  OpenSlotWrite(const OpenSlotWrite &) = delete;
  OpenSlotWrite &operator=(const OpenSlotWrite &) = delete;

private:
  OpenSlot &slot_;
  uint32_t version_;
};

// In a forked child only the forking thread exists: the others' slots are free.
void free_other_open_slots() {
  for (OpenSlot *slot = g_open_slots.load(std::memory_order_acquire); slot; slot = slot->next)
    if (slot != t_open_slot) {
      slot->depth.store(0, std::memory_order_relaxed);
      slot->owned.store(0, std::memory_order_release);
    }
}

std::string color_text(uint32_t argb) {
  char text[12];
  std::snprintf(text, sizeof text, "#%08x", argb);
  return text;
}

} // namespace

/// The recorders that live as long as the process. Their locks are held
/// across fork(), so a child never gets one taken by a thread it does not
/// have, or tables half-updated.
struct LastingRecorders {
  std::mutex mutex;
  std::vector<std::unique_ptr<AnnotationRecorder>> recorders;

  static LastingRecorders &get() {
    static auto *all = new LastingRecorders; // never destroyed: used until the end
    return *all;
  }
  static void hold_for_fork() {
    LastingRecorders &all = get();
    all.mutex.lock();
    for (const auto &recorder : all.recorders)
      recorder->mutex_.lock();
  }
  static void release_after_fork() {
    LastingRecorders &all = get();
    for (const auto &recorder : all.recorders)
      recorder->mutex_.unlock();
    all.mutex.unlock();
  }
  static void release_in_forked_child() {
    release_after_fork();
    g_fork_generation.fetch_add(1, std::memory_order_relaxed);
    free_other_open_slots();
  }
};

struct AnnotationRecorder::CachedText {
  Text text;
  size_t length = 0;
};

struct AnnotationRecorder::ThreadState {
  const AnnotationRecorder *owner = nullptr;
  uint32_t generation = 0;
  prof_track_id track = 0;
  int depth = 0;
  std::array<Range, kMaxDepth> stack;
  std::array<CachedText, kCachedTexts> texts; ///< trivially destructible: usable at thread exit
};

AnnotationRecorder::AnnotationRecorder(const Host &host, std::string_view category_base)
    : host_(host), category_base_(category_base),
      starts_(std::make_unique<OpenStart[]>(kMaxOpenStarts)) {
  category_name_versions_.push_back(std::make_unique<CategoryNames>());
  category_names_.store(category_name_versions_.back().get(), std::memory_order_release);
  static std::once_flag fork_handler;
  std::call_once(fork_handler, [] {
    pthread_atfork(&LastingRecorders::hold_for_fork, &LastingRecorders::release_after_fork,
                   &LastingRecorders::release_in_forked_child);
  });
  default_domain_.category = intern(category_base_);
  key_domain_ = host_.intern("domain");
  key_category_ = host_.intern("category");
  key_color_ = host_.intern("color");
  key_payload_ = host_.intern("payload");
}

Text AnnotationRecorder::intern(std::string_view text) {
  // Messages repeat, mostly from the same literal: the cache, slotted by
  // where the text lives and checked by what it says, spares hashing it, the
  // lock and the shared map's lookup.
  const auto where = reinterpret_cast<uintptr_t>(text.data());
  CachedText &cached = thread().texts[((where >> 3) ^ (where >> 11) ^ text.size()) % kCachedTexts];
  if (cached.text.text == nullptr || cached.length != text.size() ||
      std::memcmp(cached.text.text, text.data(), text.size()) != 0)
    cached = {intern_shared(text), text.size()};
  return cached.text;
}

Text AnnotationRecorder::intern_shared(std::string_view text) {
  std::lock_guard lock(mutex_);
  auto [it, added] = strings_.try_emplace(std::string(text), 0);
  if (added) it->second = host_.intern(text);
  return {it->second, it->first.c_str()};
}

const Text *AnnotationRecorder::register_string(std::string_view text) {
  const Text interned = intern(text);
  std::lock_guard lock(mutex_);
  auto &registered = registered_[std::string(text)];
  if (!registered) registered = std::make_unique<Text>(interned);
  return registered.get();
}

const Domain *AnnotationRecorder::create_domain(std::string_view name) {
  const Text name_text = intern(name);
  const Text category = intern(category_base_ + "/" + std::string(name));
  std::lock_guard lock(mutex_);
  auto &domain = domains_[std::string(name)];
  if (!domain) domain = std::make_unique<Domain>(Domain{name_text, category});
  return domain.get();
}

void AnnotationRecorder::name_category(const Domain *domain, uint32_t category,
                                       std::string_view name) {
  const Text text = intern(name);
  std::lock_guard lock(mutex_);
  // A new version for readers, who take no lock; every version stays alive.
  auto next = std::make_unique<CategoryNames>(*category_names_.load(std::memory_order_relaxed));
  (*next)[{domain, category}] = text;
  category_names_.store(next.get(), std::memory_order_release);
  category_name_versions_.push_back(std::move(next));
}

void AnnotationRecorder::name_thread(uint32_t tid, std::string_view name) {
  std::lock_guard lock(mutex_);
  thread_names_[tid] = std::string(name);
}

AnnotationRecorder::ThreadState &AnnotationRecorder::thread() {
  thread_local ThreadState state;
  const uint32_t generation = g_fork_generation.load(std::memory_order_relaxed);
  if (state.owner != this || state.generation != generation) {
    state.owner = this;
    state.generation = generation;
    state.track = 0;
    state.depth = 0;
    state.texts = {};
    if (t_open_slot != nullptr) {
      const OpenSlotWrite write(*t_open_slot);
      t_open_slot->depth.store(0, std::memory_order_relaxed);
    }
  }
  return state;
}

prof_track_id AnnotationRecorder::thread_track() {
  ThreadState &state = thread();
  if (state.track != 0) return state.track;
  std::string name; // the name given by name_thread(), else the OS name
  {
    std::lock_guard lock(mutex_);
    if (auto it = thread_names_.find(static_cast<uint32_t>(gettid())); it != thread_names_.end())
      name = it->second;
  }
  state.track = declare_calling_thread_track(host_, name);
  return state.track;
}

void AnnotationRecorder::fill(Range &range, const Domain &domain, Text message,
                              const Attributes &attributes) {
  range.message = message;
  range.domain = &domain;
  range.arg_count = 0;
  auto add = [&range](const prof_arg &arg) { range.args[range.arg_count++] = arg; };
  if (domain.name.id != 0) add(arg_string(key_domain_, domain.name.id));
  if (attributes.category != 0) {
    const CategoryNames &names = *category_names_.load(std::memory_order_acquire);
    const auto it = names.find({domain.name.id ? &domain : nullptr, attributes.category});
    add(it != names.end() ? arg_string(key_category_, it->second.id)
                          : arg_uint(key_category_, attributes.category));
  }
  if (attributes.argb) add(arg_string(key_color_, intern(color_text(*attributes.argb)).id));
  if (attributes.payload) {
    prof_arg payload = *attributes.payload;
    payload.key = key_payload_;
    add(payload);
  }
}

void AnnotationRecorder::emit(const Range &range, uint64_t end) const {
  // A re-anchored TSC clock may step back a few nanoseconds (tsc_clock.hpp).
  const uint64_t duration = end > range.begin ? end - range.begin : 0;
  if (duration < min_duration_.load(std::memory_order_relaxed)) return;
  host_.slice(range.track, range.begin, duration, range.message.id, range.domain->category.id, 0,
              PROF_CATEGORY_ANNOTATION,
              std::span<const prof_arg>(range.args.data(), range.arg_count));
}

int AnnotationRecorder::push(const Domain *domain_handle, Text message,
                             const Attributes &attributes) {
  const Domain &domain = this->domain(domain_handle);
  ThreadState &state = thread();
  const prof_track_id track = state.track != 0 ? state.track : thread_track();
  const int level = state.depth;
  if (level >= kMaxDepth) return -1;
  Range &range = state.stack[static_cast<size_t>(level)];
  fill(range, domain, message, attributes);
  range.track = track;
  ++state.depth;
  prof_capture_range_begin(message.text, domain.name.text);
  range.begin = TscClock::now_ns();
  OpenSlot &slot = open_slot();
  const OpenSlotWrite write(slot);
  slot.recorder.store(this, std::memory_order_relaxed);
  slot.track.store(track, std::memory_order_relaxed);
  OpenLevel &open = slot.levels[static_cast<size_t>(level)];
  open.begin.store(range.begin, std::memory_order_relaxed);
  open.message.store(message.id, std::memory_order_relaxed);
  open.domain.store(&domain, std::memory_order_relaxed);
  slot.depth.store(state.depth, std::memory_order_relaxed);
  return level;
}

int AnnotationRecorder::pop(const Domain *domain_handle) {
  const uint64_t end = TscClock::now_ns();
  const Domain &domain = this->domain(domain_handle);
  ThreadState &state = thread();
  // The innermost open range of this domain; other domains' ranges may lie above it.
  int level = state.depth - 1;
  while (level >= 0 && state.stack[static_cast<size_t>(level)].domain != &domain)
    --level;
  if (level < 0) return -1;
  const Range &range = state.stack[static_cast<size_t>(level)];
  emit(range, end);
  prof_capture_range_end(range.message.text, domain.name.text);
  // Ranges of other domains pushed above it close the gap.
  OpenSlot &slot = open_slot();
  const OpenSlotWrite write(slot);
  for (int i = level; i + 1 < state.depth; ++i) {
    const auto at = static_cast<size_t>(i);
    state.stack[at] = state.stack[at + 1];
    slot.levels[at].begin.store(state.stack[at].begin, std::memory_order_relaxed);
    slot.levels[at].message.store(state.stack[at].message.id, std::memory_order_relaxed);
    slot.levels[at].domain.store(state.stack[at].domain, std::memory_order_relaxed);
  }
  --state.depth;
  slot.depth.store(state.depth, std::memory_order_relaxed);
  return level;
}

uint64_t AnnotationRecorder::start(const Domain *domain_handle, Text message,
                                   const Attributes &attributes) {
  const Domain &domain = this->domain(domain_handle);
  const uint64_t id = next_start_.fetch_add(1, std::memory_order_relaxed);
  OpenStart &slot = starts_[id % kMaxOpenStarts];
  uint64_t expected = 0;
  if (!slot.id.compare_exchange_strong(expected, kClaimed, std::memory_order_acquire))
    return 0; // as many ranges open as there are slots: this one is not recorded
  fill(slot.range, domain, message, attributes);
  slot.range.track = thread_track();
  prof_capture_range_begin(message.text, domain.name.text);
  slot.range.begin = TscClock::now_ns();
  slot.id.store(id, std::memory_order_release);
  return id;
}

void AnnotationRecorder::end(uint64_t id) {
  const uint64_t end = TscClock::now_ns();
  if (id == 0) return;
  OpenStart &slot = starts_[id % kMaxOpenStarts];
  if (slot.id.load(std::memory_order_acquire) != id) return;
  const Range range = slot.range;
  slot.id.store(0, std::memory_order_release);
  emit(range, end);
  prof_capture_range_end(range.message.text, range.domain->name.text);
}

void AnnotationRecorder::emit_unfinished(uint64_t now) const {
  const uint64_t min_duration = min_duration_.load(std::memory_order_relaxed);
  struct Level {
    uint64_t begin;
    prof_string_id message;
    const Domain *domain;
  };
  std::array<Level, kMaxDepth> levels;
  for (OpenSlot *slot = g_open_slots.load(std::memory_order_acquire); slot; slot = slot->next) {
    if (slot->owned.load(std::memory_order_acquire) == 0) continue;
    // A thread that keeps changing its ranges is tried a few times, then left out.
    for (int attempt = 0; attempt < 8; ++attempt) {
      const uint32_t version = slot->version.load(std::memory_order_acquire);
      if (version % 2 != 0) continue;
      const bool ours = slot->recorder.load(std::memory_order_relaxed) == this;
      const prof_track_id track = slot->track.load(std::memory_order_relaxed);
      const int depth = std::clamp(slot->depth.load(std::memory_order_relaxed), 0, kMaxDepth);
      for (int i = 0; i < depth; ++i) {
        const OpenLevel &open = slot->levels[static_cast<size_t>(i)];
        levels[static_cast<size_t>(i)] = {open.begin.load(std::memory_order_relaxed),
                                          open.message.load(std::memory_order_relaxed),
                                          open.domain.load(std::memory_order_relaxed)};
      }
      std::atomic_thread_fence(std::memory_order_acquire);
      if (slot->version.load(std::memory_order_relaxed) != version) continue;
      if (!ours) break;
      for (int i = 0; i < depth; ++i) {
        const Level &level = levels[static_cast<size_t>(i)];
        const uint64_t duration = now > level.begin ? now - level.begin : 0;
        if (level.domain == nullptr || duration < min_duration) continue;
        prof_arg domain_arg = arg_string(key_domain_, level.domain->name.id);
        host_.slice(track, level.begin, duration, level.message, level.domain->category.id, 0,
                    PROF_CATEGORY_ANNOTATION,
                    std::span<const prof_arg>(&domain_arg, level.domain->name.id != 0 ? 1 : 0));
      }
      break;
    }
  }
}

void AnnotationRecorder::mark(const Domain *domain_handle, Text message,
                              const Attributes &attributes) {
  const uint64_t now = TscClock::now_ns();
  Range range;
  fill(range, this->domain(domain_handle), message, attributes);
  host_.instant(thread_track(), now, message.id, range.domain->category.id,
                PROF_CATEGORY_ANNOTATION,
                std::span<const prof_arg>(range.args.data(), range.arg_count));
}

AnnotationRecorder *new_lasting_recorder(const Host &host, std::string_view category_base) {
  auto recorder = std::make_unique<AnnotationRecorder>(host, category_base);
  LastingRecorders &all = LastingRecorders::get();
  std::lock_guard lock(all.mutex);
  all.recorders.push_back(std::move(recorder));
  return all.recorders.back().get();
}

} // namespace prof::annotations
