#include "read/trace_values.hpp"

#include <prof/collective_names.hpp>
#include <prof/kineto_format.hpp>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>

namespace prof::kineto {

namespace kf = kineto_format;

using activity::JsonType;
using activity::JsonValue;

namespace {

int64_t rounded(double value) {
  if (!(value == value)) return 0; // NaN cannot come from JSON; be safe
  if (value >= 9.2e18) return std::numeric_limits<int64_t>::max();
  if (value <= -9.2e18) return std::numeric_limits<int64_t>::min();
  return std::llround(value);
}

/// The digits of a number at value.offset: sign, integer part, fraction,
/// and whether an exponent follows.
struct NumberText {
  bool negative = false;
  std::string_view integer, fraction;
  bool exponent = false;
};

NumberText number_text(std::string_view text, const JsonValue &value) {
  NumberText out;
  size_t i = value.offset;
  if (i < text.size() && text[i] == '-') {
    out.negative = true;
    ++i;
  }
  const size_t start = i;
  while (i < text.size() && text[i] >= '0' && text[i] <= '9')
    ++i;
  out.integer = text.substr(start, i - start);
  if (i < text.size() && text[i] == '.') {
    const size_t from = ++i;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9')
      ++i;
    out.fraction = text.substr(from, i - from);
  }
  out.exponent = i < text.size() && (text[i] == 'e' || text[i] == 'E');
  return out;
}

} // namespace

int64_t microseconds_to_ns(std::string_view text, const JsonValue &value) {
  const NumberText n = number_text(text, value);
  int64_t whole = 0;
  const auto [end, error] =
      std::from_chars(n.integer.data(), n.integer.data() + n.integer.size(), whole);
  if (n.exponent || error != std::errc() || whole > std::numeric_limits<int64_t>::max() / 1000)
    return rounded(value.number * 1000.0);
  int64_t ns = whole * 1000;
  for (size_t i = 0; i < 3; ++i)
    ns += (i < n.fraction.size() ? n.fraction[i] - '0' : 0) * (i == 0 ? 100 : i == 1 ? 10 : 1);
  if (n.fraction.size() > 3 && n.fraction[3] >= '5') ++ns;
  return n.negative ? -ns : ns;
}

int64_t exact_integer(std::string_view text, const JsonValue &value) {
  const NumberText n = number_text(text, value);
  if (n.exponent || !n.fraction.empty()) return rounded(value.number);
  const char *first = n.integer.data(), *last = first + n.integer.size();
  int64_t signed_value = 0;
  if (std::from_chars(first, last, signed_value).ec == std::errc())
    return n.negative ? -signed_value : signed_value;
  uint64_t unsigned_value = 0;
  if (!n.negative && std::from_chars(first, last, unsigned_value).ec == std::errc())
    return static_cast<int64_t>(unsigned_value);
  return rounded(value.number);
}

std::string list_text(const JsonValue &value) {
  switch (value.type) {
  case JsonType::Array: {
    std::string out = "[";
    for (size_t i = 0; i < value.array.size(); ++i)
      out += (i ? ", " : "") + list_text(value.array[i]);
    return out + "]";
  }
  case JsonType::String:
    return value.string;
  case JsonType::Number: {
    if (value.number == std::floor(value.number) && std::fabs(value.number) < 9e15)
      return std::to_string(static_cast<int64_t>(value.number));
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%g", value.number);
    return buffer;
  }
  case JsonType::Bool:
    return value.boolean ? "true" : "false";
  case JsonType::Null:
  case JsonType::Object:
    return "";
  }
  return "";
}

CollectiveFacts collective_facts(std::string_view text, const JsonValue *args) {
  CollectiveFacts facts;
  if (args == nullptr || args->type != JsonType::Object) return facts;
  const auto string = [&](const char *key) -> std::string {
    const JsonValue *v = args->find(key);
    if (v == nullptr) return "";
    if (v->type == JsonType::Number) return std::to_string(exact_integer(text, *v));
    return v->type == JsonType::String ? v->string : "";
  };
  const auto integer = [&](const char *key) -> int64_t {
    const JsonValue *v = args->find(key);
    return v != nullptr && v->type == JsonType::Number ? exact_integer(text, *v) : -1;
  };
  facts.group_name = string(kf::kProcessGroupName);
  facts.group_description = string(kf::kProcessGroupDescription);
  facts.collective = string(kf::kCollectiveName);
  facts.dtype = dtype_name(string(kf::kDtype));
  facts.group_size = integer(kf::kGroupSize);
  facts.in_elements = integer(kf::kInMsgNelems);
  facts.out_elements = integer(kf::kOutMsgNelems);
  facts.sequence = integer(kf::kSeq);
  // "[0, 1, 2, 3]", as a string or a list.
  std::vector<int64_t> ranks;
  if (const JsonValue *v = args->find(kf::kProcessGroupRanks)) {
    const std::string listed = v->type == JsonType::String ? v->string : list_text(*v);
    int64_t current = -1;
    for (const char c : listed + " ") {
      if (c >= '0' && c <= '9') {
        current = (current < 0 ? 0 : current * 10) + (c - '0');
      } else if (current >= 0) {
        ranks.push_back(current);
        current = -1;
      }
    }
  }
  facts.group_ranks = ranks_text(ranks);
  return facts;
}

} // namespace prof::kineto
