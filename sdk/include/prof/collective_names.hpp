// How PyTorch names collectives, read one way by the torch source and by
// prof import: a backend's "gloo:all_reduce", a c10d operator
// "c10d::allreduce_" and record_param_comms' "Collective name" all give the
// operation "all_reduce"; element types as torch's TypeMeta names them
// ("float"); a group's global ranks as reports show them. Header-only.
#ifndef PROF_COLLECTIVE_NAMES_HPP
#define PROF_COLLECTIVE_NAMES_HPP

#include <algorithm>
#include <cctype>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace prof {

namespace collective_names_detail {

/// ScalarType names, their TypeMeta names and sizes.
struct Dtype {
  std::string_view scalar_type, type_meta;
  uint32_t size;
};
constexpr Dtype kDtypes[] = {
    {"Float", "float", 4},
    {"Double", "double", 8},
    {"Half", "c10::Half", 2},
    {"BFloat16", "c10::BFloat16", 2},
    {"Long", "long int", 8},
    {"Int", "int", 4},
    {"Short", "short int", 2},
    {"Char", "signed char", 1},
    {"Byte", "unsigned char", 1},
    {"Bool", "bool", 1},
    {"ComplexFloat", "c10::complex<float>", 8},
    {"ComplexDouble", "c10::complex<double>", 16},
};

} // namespace collective_names_detail

/// The operation a collective's name names, as the backends name it:
/// "c10d::allreduce_", "gloo:all_reduce" and "allreduce" give "all_reduce",
/// "c10d::alltoall_base_" "all_to_all", "gloo:recvAnySource" "recv".
inline std::string collective_operation(std::string_view name) {
  if (const size_t colons = name.find("::"); colons != std::string_view::npos) {
    name.remove_prefix(colons + 2);
  } else if (const size_t colon = name.find(':'); colon != std::string_view::npos) {
    name.remove_prefix(colon + 1);
  }
  while (name.starts_with('_'))
    name.remove_prefix(1);
  while (name.ends_with('_'))
    name.remove_suffix(1);
  if (name.ends_with("_coalesced")) name.remove_suffix(10);
  if (name.ends_with("_base")) name.remove_suffix(5);
  std::string operation;
  for (const char c : name) {
    if (std::isupper(static_cast<unsigned char>(c))) break; // recvAnySource
    operation += c;
  }
  // c10d's operators run the words together: allreduce, allgather, alltoall.
  if (operation.starts_with("all") && operation.size() > 3 && operation[3] != '_')
    operation.insert(3, "_");
  if (operation == "all_toall") operation = "all_to_all";
  if (operation == "all_gather_into_tensor") operation = "all_gather";
  if (operation == "reduce_scatter_tensor") operation = "reduce_scatter";
  if (operation == "recv_any_source") operation = "recv";
  return operation;
}

/// Whether `operation` (from collective_operation) is one c10d has.
inline bool known_collective_operation(std::string_view operation) {
  constexpr std::string_view kKnown[] = {
      "all_reduce", "broadcast", "reduce", "all_gather", "reduce_scatter", "all_to_all",
      "barrier",    "send",      "recv",   "gather",     "scatter",        "monitored_barrier"};
  return std::find(std::begin(kKnown), std::end(kKnown), operation) != std::end(kKnown);
}

/// A ScalarType's name as record_param_comms writes it ("Float", "BFloat16")
/// in torch's TypeMeta spelling, which the torch source reports ("float",
/// "c10::BFloat16"); other text as it is.
inline std::string dtype_name(std::string_view scalar_type) {
  for (const collective_names_detail::Dtype &d : collective_names_detail::kDtypes)
    if (d.scalar_type == scalar_type) return std::string(d.type_meta);
  return std::string(scalar_type);
}

/// Bytes per element of a dtype in either spelling, 0 when unknown.
inline uint32_t dtype_size(std::string_view dtype) {
  for (const collective_names_detail::Dtype &d : collective_names_detail::kDtypes)
    if (d.scalar_type == dtype || d.type_meta == dtype) return d.size;
  return 0;
}

/// Global ranks as reports show them: runs of consecutive ranks as "A-B"
/// (two as "A,B"), joined by ','.
inline std::string ranks_text(const std::vector<int64_t> &ranks) {
  std::string text;
  for (size_t i = 0; i < ranks.size();) {
    size_t j = i;
    while (j + 1 < ranks.size() && ranks[j + 1] == ranks[j] + 1)
      ++j;
    if (!text.empty()) text += ',';
    text += std::to_string(ranks[i]);
    if (j > i) text += (j == i + 1 ? "," : "-") + std::to_string(ranks[j]);
    i = j + 1;
  }
  return text;
}

} // namespace prof

#endif
