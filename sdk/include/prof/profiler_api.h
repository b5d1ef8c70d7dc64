/* prof's profiler API: an application marks what prof should capture
 * (`prof --capture-range profiler-api`), as cudaProfilerStart/Stop do for
 * nsys. Header-only and free without prof: each call looks once for the
 * agent prof preloads into the application, and does nothing when it is not
 * there. Safe to call from any thread.
 *
 *   #include <prof/profiler_api.h>
 *   prof_start();   region of interest   prof_stop();
 */
#ifndef PROF_PROFILER_API_H
#define PROF_PROFILER_API_H

#include <dlfcn.h>

#ifdef __cplusplus
extern "C" {
#endif

/// What an application asks of the capture.
typedef enum prof_capture_request_kind {
  PROF_CAPTURE_START = 1,       ///< prof_start(): a capture range begins
  PROF_CAPTURE_STOP = 2,        ///< prof_stop(): it ends
  PROF_CAPTURE_RANGE_BEGIN = 3, ///< an annotation range NAME@DOMAIN begins
  PROF_CAPTURE_RANGE_END = 4,   ///< an annotation range NAME@DOMAIN ends
  PROF_CAPTURE_STEP = 5,        ///< prof_step(): a step ends, the next begins
  PROF_CAPTURE_STEPS_MARKED = 6 ///< a question: does this process mark its own steps?
} prof_capture_request_kind;

/// The agent's entry: 0 when prof took the request, -1 when this process is
/// not profiled (PROF_CAPTURE_STEPS_MARKED: 1 or 0, the answer). `name` and
/// `domain` are for ranges (NULL otherwise; a NULL domain is the default
/// domain).
typedef int (*prof_capture_request_fn)(int kind, const char *name, const char *domain);

/// The symbol libprof-agent.so exports.
#define PROF_CAPTURE_REQUEST_SYMBOL "prof_agent_capture_request"

/// The agent's entry, or NULL when prof is not there (looked up once).
static inline prof_capture_request_fn prof_capture_request_function(void) {
  static prof_capture_request_fn found;
  static int looked;
  if (!__atomic_load_n(&looked, __ATOMIC_ACQUIRE)) {
    /* RTLD_DEFAULT is a null handle in glibc; it needs _GNU_SOURCE to be named. */
    /* dlsym's object pointer becomes a function pointer through a union, as
     * POSIX allows and ISO C's pedantic mode accepts. */
    union {
      void *object;
      prof_capture_request_fn function;
    } symbol;
    symbol.object = dlsym((void *)0, PROF_CAPTURE_REQUEST_SYMBOL);
    __atomic_store_n(&found, symbol.function, __ATOMIC_RELAXED);
    __atomic_store_n(&looked, 1, __ATOMIC_RELEASE);
  }
  return __atomic_load_n(&found, __ATOMIC_RELAXED);
}

/// Starts a capture range; returns 1 when prof received it, 0 when the
/// process is not profiled.
static inline int prof_start(void) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && request(PROF_CAPTURE_START, (const char *)0, (const char *)0) == 0;
}

/// Ends the capture range prof_start() began; returns as prof_start() does.
static inline int prof_stop(void) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && request(PROF_CAPTURE_STOP, (const char *)0, (const char *)0) == 0;
}

/// Marks the end of a training step and the start of the next (call it once
/// per iteration, as torch.profiler's step()): step N is the time from the
/// (N-1)th call to the Nth, step 1 beginning at the process's start. The
/// agent counts steps even while it waits for prof to attach, so `prof
/// attach --capture-steps K` can open every process's window at the same
/// step; each step is a range on the calling thread's track. Returns as
/// prof_start() does.
static inline int prof_step(void) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && request(PROF_CAPTURE_STEP, (const char *)0, (const char *)0) == 0;
}

/// Whether this process marks its own steps: 1 once prof_step() (or
/// Python's prof.step(), or the end of the range `--step-marker` names) was
/// called in it, 0 before or without prof. For sources that find steps of
/// their own (a framework's optimizer steps): they yield to the program's.
static inline int prof_steps_marked(void) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && request(PROF_CAPTURE_STEPS_MARKED, (const char *)0, (const char *)0) == 1;
}

/// For annotation libraries (an NVTX injection, a framework's own ranges):
/// a range NAME in DOMAIN (NULL: the default domain) begins. prof
/// --capture-range annotation -p NAME[@DOMAIN] collects inside it.
static inline int prof_capture_range_begin(const char *name, const char *domain) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && name && request(PROF_CAPTURE_RANGE_BEGIN, name, domain) == 0;
}

/// The range NAME in DOMAIN that prof_capture_range_begin() opened ends.
static inline int prof_capture_range_end(const char *name, const char *domain) {
  prof_capture_request_fn request = prof_capture_request_function();
  return request && name && request(PROF_CAPTURE_RANGE_END, name, domain) == 0;
}

#ifdef __cplusplus
}
#endif

#endif /* PROF_PROFILER_API_H */
