// A host that keeps nothing, for the osrt benchmarks: an instance started
// with it times every call and throws the long ones away.
#ifndef PROF_TESTS_BENCH_OSRT_DISCARD_HOST_HPP
#define PROF_TESTS_BENCH_OSRT_DISCARD_HOST_HPP

#include <prof/plugin.h>

#include <cstdio>

namespace prof::bench {

namespace discard {
inline prof_string_id next_string = 1;
inline prof_string_id intern_string(void *, const char *, size_t) { return next_string++; }
inline prof_track_id declare_track(void *, const prof_track_desc *) { return 1; }
inline prof_stack_id intern_stack(void *, const prof_string_id *, uint32_t) { return 1; }
inline void emit_slice(void *, prof_track_id, uint64_t, uint64_t, prof_string_id, prof_string_id,
                       uint64_t) {}
inline void emit_instant(void *, prof_track_id, uint64_t, prof_string_id, prof_string_id) {}
inline void emit_counter(void *, prof_track_id, uint64_t, double) {}
inline void emit_sample(void *, prof_track_id, uint64_t, prof_stack_id) {}
inline void emit_flow(void *, prof_track_id, uint64_t, uint64_t, prof_flow_phase) {}
inline prof_clock_id register_clock_domain(void *, const char *, double) { return 0; }
inline void add_calibration(void *, prof_clock_id, uint64_t, uint64_t) {}
inline uint64_t host_now(void *) { return 0; }
inline void host_log(void *, prof_log_level, const char *message) {
  std::fprintf(stderr, "%s\n", message);
}
inline const char *get_option(void *, const char *) { return nullptr; }
inline void emit_stack(void *, prof_track_id, uint64_t, prof_stack_id, prof_string_id) {}
inline const prof_session_info session{sizeof(prof_session_info), "bench", 0, "", "localhost"};
inline const prof_session_info *session_info(void *) { return &session; }
} // namespace discard

/// The host table: every event is dropped.
inline const prof_host_api kDiscardHost{sizeof(prof_host_api),    discard::intern_string,
                                        discard::declare_track,   discard::intern_stack,
                                        discard::emit_slice,      discard::emit_instant,
                                        discard::emit_counter,    discard::emit_sample,
                                        discard::emit_flow,       discard::register_clock_domain,
                                        discard::add_calibration, discard::host_now,
                                        discard::host_log,        discard::get_option,
                                        discard::session_info,    discard::emit_stack};

} // namespace prof::bench

#endif
