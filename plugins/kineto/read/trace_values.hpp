// Values of a PyTorch trace read exactly from the JSON text (times in µs
// with decimals to ns, 64-bit integers) and put in the words prof's
// reports use (shapes and types as key_averages() prints them, ranks as
// "0-3").
#pragma once

#include "read/imported_trace.hpp"

#include <prof/activity/json_reader.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof::kineto {

/// A number of µs (`value`, parsed from `text`) in ns, exactly: read from
/// its digits ("1700000000123456.789" keeps its ns), not through a double.
int64_t microseconds_to_ns(std::string_view text, const activity::JsonValue &value);

/// An integer, exactly from its digits (addresses and ids above 2^53);
/// a value past INT64_MAX keeps its 64 bits; a fraction is rounded.
int64_t exact_integer(std::string_view text, const activity::JsonValue &value);

/// A list as key_averages() prints it: [[2, 8], [16, 8], []] and
/// [float, float, Scalar]; a string as it is, a number as an integer.
std::string list_text(const activity::JsonValue &value);

/// record_param_comms' facts from its "args" (nullptr: none).
CollectiveFacts collective_facts(std::string_view text, const activity::JsonValue *args);

} // namespace prof::kineto
