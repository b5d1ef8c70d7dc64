// prof::annotations, an SDK library: turns an application's annotations
// (NVTX ranges, traced Python functions) into prof events. Push/pop ranges
// become slices on the calling thread's track when they are popped, start/end
// ranges slices on the starting thread's track when they end (on any thread),
// marks instants. Every event has the annotation category and its domain as
// arguments; each push/pop and start/end also opens and closes prof's
// annotation capture range (prof/profiler_api.h). Nothing here knows an
// annotation library's types: its plugin translates them.
#ifndef PROF_ANNOTATIONS_ANNOTATION_RECORDER_HPP
#define PROF_ANNOTATIONS_ANNOTATION_RECORDER_HPP

#include <prof/plugin.hpp>

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

namespace prof::annotations {

/// An interned string; `text` lives as long as the recorder.
struct Text {
  prof_string_id id = 0;
  const char *text = nullptr;
};

/// A domain of annotations (NVTX's nvtxDomainHandle_t points at one).
struct Domain {
  Text name;     ///< {0, nullptr} for the default domain
  Text category; ///< the events' category string: BASE, or BASE/NAME for a named domain
};

/// What one annotation carries besides its message.
struct Attributes {
  uint32_t category = 0; ///< the user's category number, 0 for none
  std::optional<uint32_t> argb;
  std::optional<prof_arg> payload; ///< typed value, key filled in by the recorder
};

class AnnotationRecorder {
public:
  /// `category_base` names the source in the events' category strings
  /// ("nvtx", "python").
  AnnotationRecorder(const Host &host, std::string_view category_base);

  /// Interned once per recorder; repeated texts come from a per-thread cache.
  Text intern(std::string_view text);
  /// A registered string (nvtxDomainRegisterString): stable for the recorder's life.
  const Text *register_string(std::string_view text);
  /// The default domain for nullptr.
  const Domain &domain(const Domain *domain) const { return domain ? *domain : default_domain_; }
  const Domain *create_domain(std::string_view name);
  void name_category(const Domain *domain, uint32_t category, std::string_view name);
  void name_thread(uint32_t tid, std::string_view name);

  /// Returns the level of the pushed range (0 outermost), -1 when too deep.
  int push(const Domain *domain, Text message, const Attributes &attributes);
  /// Returns the level of the popped range, -1 when none of `domain` is open.
  int pop(const Domain *domain);
  /// Returns the range's id for end(); 0 when too many are open.
  uint64_t start(const Domain *domain, Text message, const Attributes &attributes);
  void end(uint64_t id);
  void mark(const Domain *domain, Text message, const Attributes &attributes);
  /// Ranges shorter than `nanoseconds` are not recorded from now on (they
  /// still open and close capture ranges); 0, the default, records all.
  void set_min_duration(uint64_t nanoseconds) {
    min_duration_.store(nanoseconds, std::memory_order_relaxed);
  }
  /// Emits the push/pop ranges open now on every thread as slices that end
  /// at `now` (the host marks them unfinished: prof_source_vtable::
  /// emit_unfinished). Start/end ranges are not among them.
  void emit_unfinished(uint64_t now) const;

  static constexpr int kMaxDepth = 64;
  static constexpr size_t kMaxOpenStarts = 4096;
  static constexpr size_t kMaxArgs = 4;
  static constexpr size_t kCachedTexts = 64; ///< per thread, direct-mapped

private:
  friend struct LastingRecorders;
  struct Range {
    uint64_t begin = 0;
    prof_track_id track = 0;
    Text message;
    const Domain *domain = nullptr;
    std::array<prof_arg, kMaxArgs> args{};
    uint32_t arg_count = 0;
  };
  struct OpenStart {
    std::atomic<uint64_t> id{0}; ///< 0 free, kClaimed being written, else the range's id
    Range range;
  };
  struct CachedText;
  struct ThreadState;

  ThreadState &thread();
  Text intern_shared(std::string_view text);
  prof_track_id thread_track();
  void fill(Range &range, const Domain &domain, Text message, const Attributes &attributes);
  void emit(const Range &range, uint64_t end) const;

  Host host_;
  std::string category_base_;
  Domain default_domain_;
  prof_string_id key_domain_ = 0, key_category_ = 0, key_color_ = 0, key_payload_ = 0;

  std::mutex mutex_; ///< guards everything below but the open starts
  std::unordered_map<std::string, prof_string_id> strings_;
  std::unordered_map<std::string, std::unique_ptr<Domain>> domains_;
  std::unordered_map<std::string, std::unique_ptr<Text>> registered_;
  using CategoryNames = std::map<std::pair<const Domain *, uint32_t>, Text>;
  /// The names as of the last nvtxNameCategory*, read without the lock.
  std::atomic<const CategoryNames *> category_names_{nullptr};
  std::vector<std::unique_ptr<CategoryNames>> category_name_versions_;
  std::unordered_map<uint32_t, std::string> thread_names_;

  std::atomic<uint64_t> next_start_{1};
  std::atomic<uint64_t> min_duration_{0};
  std::unique_ptr<OpenStart[]> starts_;
};

/// A new recorder that lives as long as the process: an annotation library
/// may call on any thread at any time, even after the source stopped, so a
/// recorder is never freed. Each is kept reachable (not leaked) for leak
/// checkers.
AnnotationRecorder *new_lasting_recorder(const Host &host, std::string_view category_base);

} // namespace prof::annotations

#endif
