// The number and string formats of a Kineto trace: times as µs with three
// decimals (exact ns), integers, shortest doubles, escaped strings.
#ifndef PROF_PLUGINS_KINETO_KINETO_JSON_HPP
#define PROF_PLUGINS_KINETO_KINETO_JSON_HPP

#include <prof/json_text.hpp>

#include <cstdint>
#include <string>

namespace prof::kineto {

using prof::append_json_string;

/// Appends nanoseconds as microseconds with three decimals ("-1234.567").
void append_microseconds(std::string &out, int64_t ns);
/// Appends an integer.
void append_int(std::string &out, int64_t value);
/// Appends an unsigned integer.
void append_uint(std::string &out, uint64_t value);
/// Appends a finite double in its shortest exact form; false (nothing
/// appended) for NaN and infinities.
bool append_double(std::string &out, double value);

} // namespace prof::kineto

#endif
