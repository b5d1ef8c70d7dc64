// JSON text helpers for the chrome-json exporter: string escaping that
// always yields valid JSON, and the number formats the trace uses.
#ifndef PROF_PLUGINS_CHROME_JSON_JSON_TEXT_HPP
#define PROF_PLUGINS_CHROME_JSON_JSON_TEXT_HPP

#include <cstdint>
#include <string>
#include <string_view>

namespace prof::chrome_json {

/// Appends `text` as a quoted JSON string: quotes, backslashes and control
/// characters escaped, each byte of invalid UTF-8 replaced by \ufffd.
void append_json_string(std::string &out, std::string_view text);

/// Appends nanoseconds as microseconds with three decimals ("-1234.567").
void append_microseconds(std::string &out, int64_t ns);

/// Appends an integer.
void append_int(std::string &out, int64_t value);

/// Appends a finite double in its shortest exact form; false (nothing
/// appended) for NaN and infinities, which JSON cannot hold.
bool append_double(std::string &out, double value);

} // namespace prof::chrome_json

#endif
