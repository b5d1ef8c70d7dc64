// The one way a host fills prof_host_api: from the static functions of a
// class, each named as the table's entry it implements. prof's host, the
// in-application agent, the plugin checker and the SDK's fake hosts all build
// their table here, so a new ABI minor is one edit below and a compile error
// in every host that does not implement the new call yet.
#ifndef PROF_HOST_API_TABLE_HPP
#define PROF_HOST_API_TABLE_HPP

#include <prof/plugin.h>

#include <cstddef>
#include <cstdint>

namespace prof {

/// Whether `Host` has every call of prof_host_api up to ABI minor `Minor`, as
/// static functions named as the entries (intern_string, emit_slice, ...).
template <class Host, int Minor>
concept HostCalls = requires {
  Host::intern_string;
  Host::declare_track;
  Host::intern_stack;
  Host::emit_slice;
  Host::emit_instant;
  Host::emit_counter;
  Host::emit_sample;
  Host::emit_flow;
  Host::register_clock_domain;
  Host::add_calibration;
  Host::now;
  Host::log;
  Host::get_option;
  Host::session_info;
}
&&(Minor < 2 || requires { Host::emit_stack; }) &&
    (Minor < 3 || requires { Host::emit_counter_for; }) &&
    (Minor < 5 ||
     requires {
       Host::emit_slice_args;
       Host::emit_instant_args;
     }) &&
    (Minor < 6 || requires { Host::count_dropped; });

/// The struct_size of a host table of ABI minor `minor`: up to the last call
/// that minor has (minors that added no host call share their table).
constexpr uint32_t host_api_size(int minor) {
  if (minor >= 6) return offsetof(prof_host_api, count_dropped) + sizeof(void *);
  if (minor >= 5) return offsetof(prof_host_api, emit_instant_args) + sizeof(void *);
  if (minor >= 3) return offsetof(prof_host_api, emit_counter_for) + sizeof(void *);
  if (minor >= 2) return offsetof(prof_host_api, emit_stack) + sizeof(void *);
  return offsetof(prof_host_api, emit_stack);
}

static_assert(host_api_size(PROF_ABI_MINOR) == sizeof(prof_host_api),
              "a call was added to prof_host_api: add it to HostCalls, host_api_size and "
              "host_api_table");

/// The host table of `Host` as a host of ABI minor `Minor` offers it (the
/// current one by default; an older minor, to test a plugin against the
/// hosts it must still serve). Entries past that minor stay null and outside
/// struct_size.
template <class Host, int Minor = PROF_ABI_MINOR>
requires(Minor >= 1 && Minor <= PROF_ABI_MINOR && HostCalls<Host, Minor>) constexpr prof_host_api
    host_api_table() {
  prof_host_api api{};
  api.struct_size = host_api_size(Minor);
  api.intern_string = &Host::intern_string;
  api.declare_track = &Host::declare_track;
  api.intern_stack = &Host::intern_stack;
  api.emit_slice = &Host::emit_slice;
  api.emit_instant = &Host::emit_instant;
  api.emit_counter = &Host::emit_counter;
  api.emit_sample = &Host::emit_sample;
  api.emit_flow = &Host::emit_flow;
  api.register_clock_domain = &Host::register_clock_domain;
  api.add_calibration = &Host::add_calibration;
  api.now = &Host::now;
  api.log = &Host::log;
  api.get_option = &Host::get_option;
  api.session_info = &Host::session_info;
  if constexpr (Minor >= 2) api.emit_stack = &Host::emit_stack;
  if constexpr (Minor >= 3) api.emit_counter_for = &Host::emit_counter_for;
  if constexpr (Minor >= 5) {
    api.emit_slice_args = &Host::emit_slice_args;
    api.emit_instant_args = &Host::emit_instant_args;
  }
  if constexpr (Minor >= 6) api.count_dropped = &Host::count_dropped;
  return api;
}

} // namespace prof

#endif
