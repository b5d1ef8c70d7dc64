#include "core/runtime/shm_region.hpp"

#include "core/runtime/layout_page.hpp"
#include "core/runtime/process_gone.hpp"
#include "core/runtime/ring_buffer.hpp"

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <new>
#include <random>
#include <stdexcept>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <utility>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 // Linux 5.14; older headers lack it
#endif

namespace prof::core {

namespace {
std::runtime_error failure(const std::string &what, const std::string &name) {
  return std::runtime_error(what + " shared memory '" + name + "': " + std::strerror(errno));
}
// What a full shared-memory mount (a container's small /dev/shm) means to
// the user, with how much there was and what to change.
std::runtime_error no_room(size_t needed) {
  const auto mib = [](uint64_t bytes) { return std::to_string((bytes + (1 << 20) - 1) >> 20); };
  std::string free_there;
  struct statvfs fs {};
  if (statvfs("/dev/shm", &fs) == 0)
    free_there = " (" + mib(uint64_t{fs.f_bavail} * fs.f_frsize) + " MiB free)";
  return std::runtime_error("cannot reserve " + mib(needed) +
                            " MiB of shared memory for the application's rings: /dev/shm" +
                            free_there +
                            " is full; lower --host-ringbuffer-size or give /dev/shm more room "
                            "(in a container, e.g. docker run --shm-size)");
}
// Whether the mount of `fd` has `bytes` free now (a reservation later may
// still find it full: it fails then, and says so, without harm).
bool has_room(int fd, uint64_t bytes) {
  struct statvfs fs {};
  return fstatvfs(fd, &fs) != 0 || uint64_t{fs.f_bavail} * fs.f_frsize >= bytes;
}
ShmLayout layout_of(const ShmHeader &h) {
  return {h.ring_count,   h.ring_capacity,  h.ring_stride,   h.watermark_events, h.config_offset,
          h.config_bytes, h.catalog_offset, h.catalog_bytes, h.rings_offset};
}

/// Whether every part of `layout` lies inside a mapping of `size` bytes.
bool fits(const ShmLayout &l, uint64_t size) {
  const auto inside = [size](uint64_t offset, uint64_t bytes) {
    return offset <= size && bytes <= size - offset;
  };
  return l.ring_count <= kMaxShmRings && l.ring_capacity >= 2 &&
         (l.ring_capacity & (l.ring_capacity - 1)) == 0 && l.ring_capacity <= (1ull << 40) &&
         l.ring_stride >= RingBuffer::bytes_for(l.ring_capacity) &&
         inside(l.config_offset, l.config_bytes) && inside(l.catalog_offset, l.catalog_bytes) &&
         l.ring_stride <= size && inside(l.rings_offset, l.ring_stride * l.ring_count);
}

} // namespace

std::string new_shm_name() {
  // A random part: a pid is reused, and a killed prof leaves its name behind.
  static std::atomic<unsigned> counter{0};
  // getrandom(2): std::random_device asks the CPU what it has first
  // (cpuid, about 11 us in a VM).
  unsigned random = 0;
  if (getrandom(&random, sizeof random, 0) != sizeof random) random = std::random_device{}();
  char tail[32];
  std::snprintf(tail, sizeof tail, "%08x%u", random, counter.fetch_add(1));
  return "/prof-" + std::to_string(getpid()) + "-" + tail;
}

int remove_stale_regions() {
  int removed = 0;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/dev/shm", ec), end; !ec && it != end;
       it.increment(ec)) {
    const std::string name = it->path().filename().string();
    int pid = 0;
    char rest = 0;
    if (std::sscanf(name.c_str(), "prof-%d-%c", &pid, &rest) != 2 || pid <= 0) continue;
    struct stat st {};
    if (stat(it->path().c_str(), &st) != 0 || st.st_uid != getuid()) continue;
    if (kill(pid, 0) == 0 || errno != ESRCH) continue; // its prof still runs
    if (shm_unlink(("/" + name).c_str()) == 0) ++removed;
  }
  return removed;
}

ShmRegion::~ShmRegion() { release(); }

ShmRegion::ShmRegion(ShmRegion &&other) noexcept { *this = std::move(other); }

ShmRegion &ShmRegion::operator=(ShmRegion &&other) noexcept {
  if (this == &other) return *this;
  release();
  header_ = std::exchange(other.header_, nullptr);
  layout_ = std::exchange(other.layout_, ShmLayout{});
  bytes_ = std::exchange(other.bytes_, 0);
  name_ = std::move(other.name_);
  owner_ = std::exchange(other.owner_, false);
  fd_ = std::exchange(other.fd_, -1);
  ready_ = std::exchange(other.ready_, 0);
  return *this;
}

void ShmRegion::release() {
  if (header_) munmap(header_, bytes_);
  header_ = nullptr;
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
}

ShmRegion ShmRegion::create(const std::string &name, const ShmRegionConfig &config,
                            std::string_view config_text) {
  uint32_t count = std::min<uint32_t>(std::max<uint32_t>(config.ring_count, 1), kMaxShmRings);
  const uint64_t capacity = RingBuffer::capacity_for(config.ring_bytes / sizeof(prof_event));
  const size_t stride = layout_page_round(RingBuffer::bytes_for(capacity));
  const size_t config_offset = layout_page_round(sizeof(ShmHeader));
  const size_t catalog_offset = config_offset + layout_page_round(config_text.size() + 1);
  const size_t rings_offset = catalog_offset + layout_page_round(config.catalog_bytes);
  uint32_t ready = std::min(config.initial_rings, count);
  const size_t catalog_reserved = std::min(layout_page_round(config.initial_catalog_bytes),
                                           layout_page_round(config.catalog_bytes));
  // With no ring reserved now, the first is reserved as the application
  // starts: the mount must have room for it.
  auto backed = [&] { return catalog_offset + catalog_reserved + stride * std::max(ready, 1u); };

  const int fd = shm_open(name.c_str(), O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) throw failure("cannot create", name);
  // What the application may touch is reserved before it can: a tmpfs page
  // that cannot be had when a ring first touches it would kill the
  // application with SIGBUS: no ring is published before it is reserved.
  // The initial rings are reserved now (prof may reserve even the first one
  // later, while the application starts), the others as threads take rings
  // (grow()), and the catalog's first part, the rest
  // as it fills (reserve_catalog()). Reserving takes time (64 MB: 7 ms, and
  // as long again to give back), so a capture pays for what it uses. Where
  // the shared-memory mount is small (containers), fewer rings are made.
  int error = posix_fallocate(fd, 0, static_cast<off_t>(catalog_offset + catalog_reserved));
  while (error == 0 && ready > 0 &&
         (error = posix_fallocate(fd, static_cast<off_t>(rings_offset),
                                  static_cast<off_t>(stride * ready))) == ENOSPC &&
         ready > 2) {
    ready /= 2;
    count = ready; // the mount is nearly full: no room to grow either
  }
  if (error == 0 && ready == 0 && !has_room(fd, stride)) error = ENOSPC;
  size_t total = rings_offset + stride * count;
  if (error == 0 && ftruncate(fd, static_cast<off_t>(total)) != 0) error = errno;
  if (error != 0) {
    close(fd);
    shm_unlink(name.c_str());
    errno = error;
    if (error == ENOSPC) throw no_room(backed());
    throw failure("cannot reserve", name);
  }
  void *memory = mmap(nullptr, total, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  if (memory == MAP_FAILED) {
    close(fd);
    shm_unlink(name.c_str());
    throw failure("cannot map", name);
  }
  auto *header = new (memory) ShmHeader();
  header->version = kShmVersion;
  header->prof_pid = static_cast<int32_t>(getpid());
  header->ring_count = count;
  header->rings_ready.store(ready, std::memory_order_relaxed);
  header->ring_capacity = capacity;
  header->ring_stride = stride;
  header->watermark_events = config.watermark_bytes / sizeof(prof_event);
  header->config_offset = config_offset;
  header->config_bytes = config_text.size();
  header->catalog_offset = catalog_offset;
  header->catalog_bytes = config.catalog_bytes;
  header->catalog_reserved.store(catalog_reserved, std::memory_order_relaxed);
  header->rings_offset = rings_offset;
  header->total_bytes = total;
  header->next_string = 1;
  header->next_track = 1;
  header->next_stack = 1;
  header->next_clock = 2; // 0 is the session clock, 1 the TSC, as in every catalog
  std::memcpy(static_cast<char *>(memory) + config_offset, config_text.data(), config_text.size());
  for (uint32_t i = 0; i < ready; ++i)
    RingBuffer::format(static_cast<char *>(memory) + rings_offset + i * stride, capacity);
  std::atomic_thread_fence(std::memory_order_release);
  header->magic = kShmMagic; // last: an agent never sees a half-made region

  ShmRegion region;
  region.header_ = header;
  region.layout_ = layout_of(*header);
  region.bytes_ = total;
  region.name_ = name;
  region.owner_ = true;
  region.fd_ = fd;
  region.ready_ = ready;
  return region;
}

namespace {
// The region's ring lock, owned by a thread id. prof never waits for it
// (the holder is the application's); an application's thread waits a
// little for another one reserving (a burst of new threads must not lose
// events), but never for itself (a signal handler that interrupted its own
// reservation) nor for long: the holder may be prof, stopped.
class RingsLock {
public:
  enum class Wait { never, briefly };
  static constexpr int64_t kBriefNs = 20'000'000;

  /// `take_over`: a lock whose owner is gone is taken.
  RingsLock(std::atomic<int32_t> &lock, Wait wait, bool take_over) : lock_(lock) {
    const auto self = static_cast<int32_t>(syscall(SYS_gettid));
    const int64_t deadline = wait == Wait::briefly ? monotonic_ns() + kBriefNs : 0;
    for (;;) {
      int32_t owner = 0;
      if (lock_.compare_exchange_strong(owner, self, std::memory_order_acquire)) break;
      if (owner == self) return;
      if (take_over && process_gone(owner) &&
          lock_.compare_exchange_strong(owner, self, std::memory_order_acquire))
        break; // left by a thread that died holding it
      if (monotonic_ns() >= deadline) return;
      syscall(SYS_sched_yield); // raw: sched_yield may be interposed by a tracing plugin
    }
    held_ = true;
  }
  ~RingsLock() {
    if (held_) lock_.store(0, std::memory_order_release);
  }
  RingsLock(const RingsLock &) = delete;
  RingsLock &operator=(const RingsLock &) = delete;
  bool held() const { return held_; }

private:
  static int64_t monotonic_ns() {
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    return int64_t{now.tv_sec} * 1'000'000'000 + now.tv_nsec;
  }

  std::atomic<int32_t> &lock_;
  bool held_ = false;
};
} // namespace

bool ShmRegion::back(uint64_t offset, uint64_t bytes) {
  // An agent that was passed the region populates its own mapping: a full
  // mount fails the call instead of raising SIGBUS (Linux 5.14).
  if (!owner_ && !by_name_) {
    const uint64_t page = static_cast<uint64_t>(sysconf(_SC_PAGESIZE));
    const uint64_t first = offset / page * page;
    const uint64_t end = std::min<uint64_t>((offset + bytes + page - 1) / page * page, bytes_);
    if (madvise(base() + first, end - first, MADV_POPULATE_WRITE) == 0) return true;
    if (errno != EINVAL) return false;
  }
  // prof through its descriptor; any other process by name, never through a
  // descriptor kept in the application: one it closed and reused for a file
  // of its own must never be written to.
  const int fd = owner_ ? fd_ : shm_open(name_.c_str(), O_RDWR | O_CLOEXEC, 0);
  if (fd < 0) return false;
  const int error = posix_fallocate(fd, static_cast<off_t>(offset), static_cast<off_t>(bytes));
  if (!owner_) close(fd);
  return error == 0;
}

bool ShmRegion::add_ring(uint32_t index) {
  if (index >= layout_.ring_count ||
      !back(layout_.rings_offset + layout_.ring_stride * index, layout_.ring_stride)) {
    header_->rings_full.store(1, std::memory_order_relaxed); // nobody tries again
    return false;
  }
  RingBuffer::format(rings() + index * layout_.ring_stride, layout_.ring_capacity);
  header_->rings_ready.store(index + 1, std::memory_order_release);
  return true;
}

bool ShmRegion::reserve_next_ring() {
  if (header_ == nullptr || name_.empty() || header_->rings_full.load(std::memory_order_relaxed))
    return false;
  const uint32_t seen = header_->rings_ready.load(std::memory_order_acquire);
  const RingsLock lock(header_->rings_lock, RingsLock::Wait::briefly,
                       !header_->ids_unchecked.load(std::memory_order_relaxed));
  if (!lock.held()) return false;
  // A ring published while this thread waited for the lock (prof reserving
  // the first as the application starts) is the caller's to try first.
  const uint32_t ready = header_->rings_ready.load(std::memory_order_acquire);
  return ready != seen || add_ring(ready);
}

std::optional<uint32_t> ShmRegion::grow(uint32_t rings) {
  if (!owner_ || fd_ < 0 || header_ == nullptr) return 0;
  const RingsLock lock(header_->rings_lock, RingsLock::Wait::never,
                       !header_->ids_unchecked.load(std::memory_order_relaxed));
  if (!lock.held()) return std::nullopt;
  // Rings the application's threads reserved: backed again by prof (a no-op
  // for what is), so that a header written over cannot make prof touch
  // memory that is not, which would fail (SIGBUS) on a full mount. New rings
  // go after prof's own count, never before it.
  const uint32_t published =
      std::min(header_->rings_ready.load(std::memory_order_acquire), layout_.ring_count);
  if (published > ready_) {
    if (!back(layout_.rings_offset + layout_.ring_stride * ready_,
              layout_.ring_stride * (published - ready_))) {
      header_->rings_full.store(1, std::memory_order_relaxed);
      return 0;
    }
    ready_ = published;
  }
  uint32_t added = 0;
  while (added < rings && add_ring(ready_)) {
    ++ready_;
    ++added;
  }
  return added;
}

bool ShmRegion::attach(const std::string &name, std::string *error) {
  const int fd = shm_open(name.c_str(), O_RDWR | O_CLOEXEC, 0);
  if (fd < 0) {
    *error = "cannot open shared memory '" + name + "': " + std::strerror(errno);
    return false;
  }
  const bool attached = attach_fd(fd, name, error);
  close(fd);
  by_name_ = true;
  return attached;
}

bool ShmRegion::attach_fd(int fd, const std::string &name, std::string *error) {
  struct stat st {};
  fstat(fd, &st);
  const size_t size = static_cast<size_t>(st.st_size);
  void *memory = size >= sizeof(ShmHeader)
                     ? mmap(nullptr, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
                     : MAP_FAILED;
  if (memory == MAP_FAILED) {
    *error = "shared memory '" + name + "' is too small or cannot be mapped";
    return false;
  }
  auto *header = static_cast<ShmHeader *>(memory);
  const ShmLayout layout = layout_of(*header);
  if (header->magic != kShmMagic || header->version != kShmVersion || header->total_bytes != size ||
      !fits(layout, size)) {
    munmap(memory, size);
    *error = "shared memory '" + name + "' is not a prof region of version " +
             std::to_string(kShmVersion);
    return false;
  }
  release();
  header_ = header;
  layout_ = layout;
  bytes_ = size;
  name_ = name;
  owner_ = false;
  by_name_ = false;
  return true;
}

void ShmRegion::unlink() {
  if (!name_.empty()) shm_unlink(name_.c_str());
}

bool ShmRegion::reserve_catalog(uint64_t bytes) {
  if (header_ == nullptr || name_.empty()) return false;
  bytes = std::min<uint64_t>(layout_page_round(bytes), layout_.catalog_bytes);
  const uint64_t reserved = header_->catalog_reserved.load(std::memory_order_relaxed);
  if (bytes <= reserved) return true;
  if (!back(layout_.catalog_offset + reserved, bytes - reserved)) return false;
  header_->catalog_reserved.store(bytes, std::memory_order_release);
  return true;
}

std::string_view ShmRegion::config_text() const {
  return {base() + layout_.config_offset, layout_.config_bytes};
}

} // namespace prof::core
