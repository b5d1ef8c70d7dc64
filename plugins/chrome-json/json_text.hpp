// JSON text helpers for the chrome-json exporter: the number formats the
// trace uses (strings are escaped by the SDK's append_json_string).
#ifndef PROF_PLUGINS_CHROME_JSON_JSON_TEXT_HPP
#define PROF_PLUGINS_CHROME_JSON_JSON_TEXT_HPP

#include <cstdint>
#include <string>
#include <string_view>

#include <prof/json_text.hpp>

namespace prof::chrome_json {

using prof::append_json_string; // the SDK's, shared with prof stats

/// Appends nanoseconds as microseconds with three decimals ("-1234.567").
void append_microseconds(std::string &out, int64_t ns);

/// Appends an integer.
void append_int(std::string &out, int64_t value);

/// Appends a finite double in its shortest exact form; false (nothing
/// appended) for NaN and infinities, which JSON cannot hold.
bool append_double(std::string &out, double value);

} // namespace prof::chrome_json

#endif
