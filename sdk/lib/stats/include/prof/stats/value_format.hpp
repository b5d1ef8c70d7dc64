// Formatting of counter values for the summary's counter section.
#pragma once

#include <string>
#include <string_view>

namespace prof::stats {

/// "bytes": two decimals in B/KiB/MiB/GiB/TiB, the number under 1024
/// after rounding (e.g. "1.50GiB").
std::string format_bytes(double bytes);

/// A counter value in its unit: "%" → "12.34%", "bytes" → format_bytes,
/// anything else a plain number (no decimals when it is whole).
std::string format_counter_value(double value, std::string_view unit);

} // namespace prof::stats
