// A stand-in for the prof core on the source side whose records live in
// shared memory, so that a forked child's events reach the test too. Every
// entry point takes a spin lock (never a pthread lock: those are interposed)
// and can clobber errno, to prove the interposers restore it.
#ifndef PROF_TESTS_UNIT_OSRT_SHARED_FAKE_HOST_HPP
#define PROF_TESTS_UNIT_OSRT_SHARED_FAKE_HOST_HPP

#include <prof/host_api_table.hpp>
#include <prof/plugin.h>

#include <sys/mman.h>

#include <atomic>
#include <cerrno>
#include <cstring>
#include <new>
#include <string>
#include <vector>

namespace prof::testing {

class SharedFakeHost {
public:
  struct Track {
    prof_track_id id;
    prof_track_kind kind;
    prof_track_id parent;
    int pid;
    int tid;
    char name[32];
  };
  struct Slice {
    prof_track_id track;
    uint64_t begin;
    uint64_t duration;
    prof_string_id name;
    prof_string_id category;
    uint64_t correlation;
  };
  struct Sample {
    prof_track_id track;
    uint64_t ts;
    prof_stack_id stack;
  };

  /// Maps a new host into shared anonymous memory.
  static SharedFakeHost *create() {
    void *memory = mmap(nullptr, sizeof(SharedFakeHost), PROT_READ | PROT_WRITE,
                        MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) throw std::bad_alloc();
    return new (memory) SharedFakeHost();
  }
  static void destroy(SharedFakeHost *host) {
    host->~SharedFakeHost();
    munmap(host, sizeof(SharedFakeHost));
  }

  const prof_host_api *api() const { return &kApi; }
  void set_option(const char *name, const char *value) {
    Locked hold(*this);
    std::strncpy(option_names_[option_count_], name, sizeof option_names_[0] - 1);
    std::strncpy(option_values_[option_count_], value, sizeof option_values_[0] - 1);
    ++option_count_;
  }
  void set_clobber_errno(bool on) { clobber_errno_.store(on); }

  std::string string(prof_string_id id) {
    Locked hold(*this);
    return id == 0 || id > string_count_ ? std::string() : std::string(strings_[id - 1]);
  }
  std::vector<Slice> slices_named(const std::string &name) {
    std::vector<Slice> out;
    Locked hold(*this);
    for (uint32_t i = 0; i < slice_count_; ++i)
      if (name == text_locked(slices_[i].name)) out.push_back(slices_[i]);
    return out;
  }
  std::vector<Slice> slices() {
    Locked hold(*this);
    return std::vector<Slice>(slices_, slices_ + slice_count_);
  }
  std::vector<Sample> samples() {
    Locked hold(*this);
    return std::vector<Sample>(samples_, samples_ + sample_count_);
  }
  Track track(prof_track_id id) {
    Locked hold(*this);
    return id == 0 || id > track_count_ ? Track{} : tracks_[id - 1];
  }
  std::vector<std::string> stack_frames(prof_stack_id id) {
    std::vector<std::string> out;
    Locked hold(*this);
    if (id == 0 || id > stack_count_) return out;
    for (uint32_t i = 0; i < stacks_[id - 1].count; ++i)
      out.emplace_back(text_locked(stacks_[id - 1].frames[i]));
    return out;
  }
  uint32_t dropped() const { return dropped_; }

private:
  static constexpr uint32_t kStrings = 2048, kTracks = 512, kSlices = 8192, kSamples = 1024,
                            kStacks = 256, kOptions = 8;
  struct Stack {
    uint32_t count;
    prof_string_id frames[128];
  };
  class Locked {
  public:
    explicit Locked(SharedFakeHost &host) : host_(host), saved_errno_(errno) {
      while (host_.lock_.exchange(true, std::memory_order_acquire))
        __builtin_ia32_pause();
    }
    ~Locked() {
      host_.lock_.store(false, std::memory_order_release);
      errno = host_.clobber_errno_.load() ? EXDEV : saved_errno_;
    }

  private:
    SharedFakeHost &host_;
    int saved_errno_;
  };

  SharedFakeHost() {
    session_ = prof_session_info{sizeof(prof_session_info), "test", 0, "", "localhost"};
  }
  static SharedFakeHost &self(void *host) { return *static_cast<SharedFakeHost *>(host); }
  const char *text_locked(prof_string_id id) const {
    return id == 0 || id > string_count_ ? "" : strings_[id - 1];
  }

  // The functions behind prof_host_api (up to ABI 1.2, all osrt calls);
  // `host` is the SharedFakeHost.
  struct Calls {
    static prof_string_id intern_string(void *host, const char *text, size_t length) {
      SharedFakeHost &h = self(host);
      Locked hold(h);
      const std::string value(text, length);
      for (uint32_t i = 0; i < h.string_count_; ++i)
        if (value == h.strings_[i]) return i + 1;
      if (h.string_count_ == kStrings) return 0;
      std::strncpy(h.strings_[h.string_count_], value.c_str(), sizeof h.strings_[0] - 1);
      return ++h.string_count_;
    }
    static prof_track_id declare_track(void *host, const prof_track_desc *desc) {
      SharedFakeHost &h = self(host);
      Locked hold(h);
      if (h.track_count_ == kTracks) return 0;
      Track &t = h.tracks_[h.track_count_];
      t = Track{h.track_count_ + 1, desc->kind, desc->parent, desc->pid, desc->tid, {}};
      std::strncpy(t.name, desc->name, sizeof t.name - 1);
      return ++h.track_count_;
    }
    static prof_stack_id intern_stack(void *host, const prof_string_id *frames, uint32_t count) {
      SharedFakeHost &h = self(host);
      Locked hold(h);
      if (h.stack_count_ == kStacks || count > 128) return 0;
      Stack &s = h.stacks_[h.stack_count_];
      s.count = count;
      std::memcpy(s.frames, frames, count * sizeof frames[0]);
      return ++h.stack_count_;
    }
    static void emit_slice(void *host, prof_track_id track, uint64_t begin, uint64_t duration,
                           prof_string_id name, prof_string_id category, uint64_t correlation) {
      SharedFakeHost &h = self(host);
      Locked hold(h);
      if (h.slice_count_ == kSlices) {
        ++h.dropped_;
        return;
      }
      h.slices_[h.slice_count_++] = Slice{track, begin, duration, name, category, correlation};
    }
    static void emit_sample(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack) {
      SharedFakeHost &h = self(host);
      Locked hold(h);
      if (h.sample_count_ == kSamples) {
        ++h.dropped_;
        return;
      }
      h.samples_[h.sample_count_++] = Sample{track, ts, stack};
    }
    static void emit_stack(void *host, prof_track_id track, uint64_t ts, prof_stack_id stack,
                           prof_string_id) {
      emit_sample(host, track, ts, stack);
    }
    static void emit_instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
    static void emit_counter(void *, prof_track_id, uint64_t, double) {}
    static void emit_flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
    static prof_clock_id register_clock_domain(void *, const char *, double) { return 0; }
    static void add_calibration(void *, prof_clock_id, uint64_t, uint64_t) {}
    static uint64_t now(void *) {
      timespec ts;
      clock_gettime(CLOCK_MONOTONIC, &ts);
      return static_cast<uint64_t>(ts.tv_sec) * 1000000000u + static_cast<uint64_t>(ts.tv_nsec);
    }
    static void log(void *, prof_log_level, const char *) {}
    static const char *get_option(void *host, const char *name) {
      SharedFakeHost &h = self(host);
      for (uint32_t i = 0; i < h.option_count_; ++i)
        if (std::strcmp(h.option_names_[i], name) == 0) return h.option_values_[i];
      return nullptr; // the plugin keeps its defaults
    }
    static const prof_session_info *session_info(void *host) { return &self(host).session_; }
  };
  static constexpr prof_host_api kApi = host_api_table<Calls, 2>();

  std::atomic<bool> lock_{false};
  std::atomic<bool> clobber_errno_{false};
  prof_session_info session_;
  uint32_t option_count_ = 0;
  char option_names_[kOptions][32] = {};
  char option_values_[kOptions][32] = {};
  uint32_t string_count_ = 0;
  char strings_[kStrings][96] = {};
  uint32_t track_count_ = 0;
  Track tracks_[kTracks] = {};
  uint32_t slice_count_ = 0;
  Slice slices_[kSlices] = {};
  uint32_t sample_count_ = 0;
  Sample samples_[kSamples] = {};
  uint32_t stack_count_ = 0;
  Stack stacks_[kStacks] = {};
  uint32_t dropped_ = 0;
};

} // namespace prof::testing

#endif
