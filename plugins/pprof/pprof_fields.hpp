// Field numbers of pprof's profile.proto (github.com/google/pprof,
// proto/profile.proto): the messages this exporter writes.
#ifndef PROF_PLUGINS_PPROF_PPROF_FIELDS_HPP
#define PROF_PLUGINS_PPROF_PPROF_FIELDS_HPP

#include <cstdint>

namespace prof::pprof::fields {

namespace profile {
inline constexpr uint32_t kSampleType = 1; ///< ValueType, repeated
inline constexpr uint32_t kSample = 2;
inline constexpr uint32_t kLocation = 4;
inline constexpr uint32_t kFunction = 5;
inline constexpr uint32_t kStringTable = 6;
inline constexpr uint32_t kTimeNanos = 9;
inline constexpr uint32_t kDurationNanos = 10;
inline constexpr uint32_t kPeriodType = 11; ///< ValueType
inline constexpr uint32_t kPeriod = 12;
inline constexpr uint32_t kComment = 13; ///< string indices
inline constexpr uint32_t kDefaultSampleType = 14;
} // namespace profile

namespace value_type {
inline constexpr uint32_t kType = 1;
inline constexpr uint32_t kUnit = 2;
} // namespace value_type

namespace sample {
inline constexpr uint32_t kLocationId = 1; ///< packed, leaf first
inline constexpr uint32_t kValue = 2;      ///< packed
inline constexpr uint32_t kLabel = 3;
} // namespace sample

namespace label {
inline constexpr uint32_t kKey = 1;
inline constexpr uint32_t kStr = 2;
inline constexpr uint32_t kNum = 3;
inline constexpr uint32_t kNumUnit = 4;
} // namespace label

namespace location {
inline constexpr uint32_t kId = 1;
inline constexpr uint32_t kLine = 4;
} // namespace location

namespace line {
inline constexpr uint32_t kFunctionId = 1;
inline constexpr uint32_t kLine = 2;
} // namespace line

namespace function {
inline constexpr uint32_t kId = 1;
inline constexpr uint32_t kName = 2;
inline constexpr uint32_t kFilename = 4;
} // namespace function

} // namespace prof::pprof::fields

#endif
