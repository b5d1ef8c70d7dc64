// The C library's own definition of an interposed function, looked up with
// dlsym(RTLD_NEXT) on first use and cached. Constant-initialized, so it works
// before any constructor has run; several threads resolving at once store the
// same pointer.
#ifndef PROF_PLUGINS_OSRT_REAL_FUNCTION_HPP
#define PROF_PLUGINS_OSRT_REAL_FUNCTION_HPP

#include <atomic>

namespace prof::osrt {

/// dlsym(RTLD_NEXT, name), or dlvsym when `version` is set; NULL when absent.
/// Interposed calls made meanwhile go straight through.
void *resolve_next(const char *name, const char *version) noexcept;

template <class Fn> class RealFunction {
public:
  constexpr explicit RealFunction(const char *name, const char *version = nullptr)
      : name_(name), version_(version) {}
  /// The real function, NULL when the C library lacks it.
  Fn get() noexcept {
    Fn fn = fn_.load(std::memory_order_acquire);
    if (fn != nullptr) [[likely]]
      return fn;
    fn = reinterpret_cast<Fn>(resolve_next(name_, version_));
    if (fn != nullptr) fn_.store(fn, std::memory_order_release);
    return fn;
  }

private:
  std::atomic<Fn> fn_{nullptr};
  const char *name_;
  const char *version_;
};

} // namespace prof::osrt

/// Declares `var` as the next definition of ::name (a function-local static).
/// decltype of a C library function carries attributes (nonnull,
/// warn_unused_result) that a pointer type cannot: GCC says so, harmlessly.
#define PROF_OSRT_NEXT(var, name)                                                                  \
  _Pragma("GCC diagnostic push")                                                                   \
      _Pragma("GCC diagnostic ignored \"-Wignored-attributes\"") static constinit ::prof::osrt::   \
          RealFunction<decltype(&::name)>                                                          \
              var{#name};                                                                          \
  _Pragma("GCC diagnostic pop")
/// Declares `real` as the next definition of ::name.
#define PROF_OSRT_REAL(name) PROF_OSRT_NEXT(real, name)
/// Fetches the real function into `fn`, or fails like a missing system call.
#define PROF_OSRT_REAL_OR(fail)                                                                    \
  auto fn = real.get();                                                                            \
  if (fn == nullptr) [[unlikely]] {                                                                \
    errno = ENOSYS;                                                                                \
    return fail;                                                                                   \
  }

#endif
