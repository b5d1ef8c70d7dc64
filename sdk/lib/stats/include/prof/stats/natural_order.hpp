// Natural ordering of names: digit runs compare as numbers, so "cpu2"
// sorts before "cpu10".
#pragma once

#include <string_view>

namespace prof::stats {

/// True when `a` sorts before `b` in natural order.
bool natural_less(std::string_view a, std::string_view b);

} // namespace prof::stats
