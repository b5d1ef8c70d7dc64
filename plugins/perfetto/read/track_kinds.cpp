#include "read/track_kinds.hpp"

#include <array>
#include <cctype>

namespace prof::perfetto {
namespace {

bool digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }
bool alnum(char c) { return std::isalnum(static_cast<unsigned char>(c)) != 0; }

/// The words before a device's index in the names prof's device sources give.
constexpr std::array<std::string_view, 11> kDeviceWords = {
    "GPU", "GCU", "NPU", "XPU", "TPU", "DCU", "MLU", "HPU", "IPU", "Device", "Accelerator"};

/// "<word> <n>" with `word` one of `words`.
template <size_t N>
bool word_and_index(std::string_view name, const std::array<std::string_view, N> &words) {
  const size_t space = name.rfind(' ');
  if (space == std::string_view::npos || trailing_index(name) < 0) return false;
  const std::string_view word = name.substr(0, space);
  for (const std::string_view w : words)
    if (word == w) return true;
  return false;
}

/// A Linux network interface's name: "eth0", "ens5f1", "ib0", "lo".
bool interface_name(std::string_view name) {
  if (name.empty() || name.size() > 15) return false; // IFNAMSIZ - 1
  for (const char c : name)
    if (!alnum(c) && c != '.' && c != '_' && c != '-' && c != ':') return false;
  if (name == "lo") return true;
  static constexpr std::array<std::string_view, 11> kPrefixes = {
      "eth", "en", "ib", "wl", "ww", "bond", "mlx", "hsn", "team", "br", "veth"};
  for (const std::string_view prefix : kPrefixes)
    if (name.starts_with(prefix) && name.size() > prefix.size() && digit(name.back())) return true;
  return false;
}

/// "name (4 ranks)", "name (1 rank)": a communicator as pccl names one.
bool communicator_name(std::string_view name) {
  return name.ends_with(" ranks)") || name.ends_with(" rank)");
}

} // namespace

int trailing_index(std::string_view name) {
  size_t start = name.size();
  while (start > 0 && digit(name[start - 1]))
    --start;
  if (start == name.size() || start == 0 || name[start - 1] != ' ' || name.size() - start > 9)
    return -1;
  int value = 0;
  for (size_t i = start; i < name.size(); ++i)
    value = value * 10 + (name[i] - '0');
  return value;
}

TrackKind named_track_kind(std::string_view name, int parent, bool holds_tracks) {
  switch (parent) {
  case 0:
    if (word_and_index(name, std::array<std::string_view, 1>{"CPU"}))
      return {PROF_TRACK_CPU, trailing_index(name)};
    if (word_and_index(name, kDeviceWords)) return {PROF_TRACK_DEVICE, trailing_index(name)};
    if (interface_name(name)) return {PROF_TRACK_NETWORK, -1};
    return {};
  case PROF_TRACK_PROCESS:
    if (communicator_name(name)) return {PROF_TRACK_COMM, -1};
    return {};
  case PROF_TRACK_COMM:
    return {PROF_TRACK_COMM, trailing_index(name)};
  case PROF_TRACK_DEVICE:
  case PROF_TRACK_CLUSTER:
  case PROF_TRACK_ENGINE:
    if (name == "Memory" || name == "Sync") return {};
    if (parent == PROF_TRACK_DEVICE && holds_tracks && trailing_index(name) >= 0)
      return {PROF_TRACK_CLUSTER, trailing_index(name)};
    return {PROF_TRACK_ENGINE, trailing_index(name)};
  default:
    return {};
  }
}

} // namespace prof::perfetto
