// Header-only C++ helpers over the event model (event.h): names of the
// well-known categories, typed arguments built and printed one way for
// every plugin.
#ifndef PROF_EVENT_HPP
#define PROF_EVENT_HPP

#include <prof/event.h>

#include <charconv>
#include <string>
#include <string_view>

namespace prof {

/// The name exporters write for a well-known category ("memcpy.htod"); ""
/// for PROF_CATEGORY_OTHER and for kinds this header does not know.
inline const char *category_name(uint16_t kind) {
  switch (kind) {
  case PROF_CATEGORY_KERNEL:
    return "kernel";
  case PROF_CATEGORY_MEMCPY:
    return "memcpy";
  case PROF_CATEGORY_MEMCPY_HTOD:
    return "memcpy.htod";
  case PROF_CATEGORY_MEMCPY_DTOH:
    return "memcpy.dtoh";
  case PROF_CATEGORY_MEMCPY_DTOD:
    return "memcpy.dtod";
  case PROF_CATEGORY_MEMCPY_PTOP:
    return "memcpy.ptop";
  case PROF_CATEGORY_MEMSET:
    return "memset";
  case PROF_CATEGORY_SYNC:
    return "sync";
  case PROF_CATEGORY_RUNTIME_API:
    return "runtime-api";
  case PROF_CATEGORY_DRIVER_API:
    return "driver-api";
  case PROF_CATEGORY_ANNOTATION:
    return "annotation";
  case PROF_CATEGORY_COMMUNICATION:
    return "communication";
  case PROF_CATEGORY_MEMORY:
    return "memory";
  case PROF_CATEGORY_OVERHEAD:
    return "overhead";
  case PROF_CATEGORY_OPERATOR:
    return "operator";
  default:
    return "";
  }
}

/// The direction a memcpy category names ("HtoD"); "" for other kinds and
/// for a copy of unknown direction.
inline const char *copy_direction(uint16_t kind) {
  switch (kind) {
  case PROF_CATEGORY_MEMCPY_HTOD:
    return "HtoD";
  case PROF_CATEGORY_MEMCPY_DTOH:
    return "DtoH";
  case PROF_CATEGORY_MEMCPY_DTOD:
    return "DtoD";
  case PROF_CATEGORY_MEMCPY_PTOP:
    return "PtoP";
  default:
    return "";
  }
}

/// True for every memcpy category, whatever its direction.
inline bool is_memcpy(uint16_t kind) {
  return kind >= PROF_CATEGORY_MEMCPY && kind <= PROF_CATEGORY_MEMCPY_PTOP;
}
/// Device work: kernels, copies, sets and synchronization on a device.
inline bool is_device_work(uint16_t kind) {
  return kind >= PROF_CATEGORY_KERNEL && kind <= PROF_CATEGORY_SYNC;
}
/// Calls of a runtime or driver API.
inline bool is_api_call(uint16_t kind) {
  return kind == PROF_CATEGORY_RUNTIME_API || kind == PROF_CATEGORY_DRIVER_API;
}

/// Builds one argument. `key` and string values are interned string ids.
inline prof_arg arg_int(prof_string_id key, int64_t value) {
  prof_arg a{key, PROF_ARG_INT, {}};
  a.value.i = value;
  return a;
}
inline prof_arg arg_uint(prof_string_id key, uint64_t value) {
  prof_arg a{key, PROF_ARG_UINT, {}};
  a.value.u = value;
  return a;
}
inline prof_arg arg_double(prof_string_id key, double value) {
  prof_arg a{key, PROF_ARG_DOUBLE, {}};
  a.value.d = value;
  return a;
}
inline prof_arg arg_string(prof_string_id key, prof_string_id value) {
  prof_arg a{key, PROF_ARG_STRING, {}};
  a.value.u = value; // the upper half zero, so equal arguments have equal bytes
  return a;
}

/// A call stack as an argument (ABI 1.7): `stack` is an interned stack id.
inline prof_arg arg_stack(prof_string_id key, prof_stack_id stack) {
  prof_arg a{key, PROF_ARG_STACK, {}};
  a.value.u = stack;
  return a;
}
/// Arguments whose value is an id of 32 bits (strings, stacks).
inline bool arg_is_id(uint32_t type) { return type == PROF_ARG_STRING || type == PROF_ARG_STACK; }

/// An argument's value as text; `string` resolves string ids (a callable
/// taking prof_string_id and returning something convertible to
/// std::string_view). Doubles print in the shortest form that reads back
/// exactly.
template <class Strings> std::string arg_text(const prof_arg &a, const Strings &string) {
  char buffer[40];
  std::to_chars_result r{buffer, {}};
  switch (a.type) {
  case PROF_ARG_INT:
    r = std::to_chars(buffer, buffer + sizeof buffer, a.value.i);
    break;
  case PROF_ARG_UINT:
    r = std::to_chars(buffer, buffer + sizeof buffer, a.value.u);
    break;
  case PROF_ARG_DOUBLE:
    r = std::to_chars(buffer, buffer + sizeof buffer, a.value.d);
    break;
  case PROF_ARG_STRING:
    return std::string(std::string_view(string(a.value.s)));
  case PROF_ARG_STACK: // its frames need the stacks (ExportHost::arg_text names them)
    return "stack " + std::to_string(a.value.u);
  default:
    break;
  }
  return std::string(buffer, r.ptr);
}

} // namespace prof

#endif
