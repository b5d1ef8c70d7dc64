#include "tools/prof/collective_names.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

namespace prof::tool {
namespace {

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

} // namespace

std::string collective_operation(std::string_view name) {
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

bool known_collective_operation(std::string_view operation) {
  constexpr std::string_view kKnown[] = {
      "all_reduce", "broadcast", "reduce", "all_gather", "reduce_scatter", "all_to_all",
      "barrier",    "send",      "recv",   "gather",     "scatter",        "monitored_barrier"};
  return std::find(std::begin(kKnown), std::end(kKnown), operation) != std::end(kKnown);
}

std::string dtype_name(std::string_view scalar_type) {
  for (const Dtype &d : kDtypes)
    if (d.scalar_type == scalar_type) return std::string(d.type_meta);
  return std::string(scalar_type);
}

uint32_t dtype_size(std::string_view dtype) {
  for (const Dtype &d : kDtypes)
    if (d.scalar_type == dtype || d.type_meta == dtype) return d.size;
  return 0;
}

} // namespace prof::tool
