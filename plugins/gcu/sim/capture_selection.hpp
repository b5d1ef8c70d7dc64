// What one capture records: a bitmap of item slots per device and a bitmap
// of traced API functions, built from the config's lists.
#ifndef PROF_GCUSIM_CAPTURE_SELECTION_HPP
#define PROF_GCUSIM_CAPTURE_SELECTION_HPP

#include "item_slots.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace prof::gcusim {

class CaptureSelection {
public:
  /// The selection of `config`, or nullopt with the reason in `error`.
  static std::optional<CaptureSelection> build(const prof_gcu_capture_config &config,
                                               const prof_gcu_topology &topology,
                                               const ItemSlots &slots, std::string &error);

  bool selected(uint32_t device, uint32_t slot) const noexcept {
    const std::vector<uint64_t> &bits = items_[device];
    return (bits[slot / 64] >> (slot % 64)) & 1u;
  }
  bool device_selected(uint32_t device) const noexcept { return device_any_[device]; }
  bool api_selected(uint32_t domain, uint32_t function) const noexcept {
    return domain == kRuntimeDomain && function < kApiFunctionCount && ((apis_ >> function) & 1u);
  }
  bool any_items() const noexcept { return any_items_; }
  bool any_apis() const noexcept { return apis_ != 0; }

private:
  std::vector<std::vector<uint64_t>> items_; // [device][slot / 64]
  std::vector<bool> device_any_;
  uint64_t apis_ = 0;
  bool any_items_ = false;
};
static_assert(kApiFunctionCount <= 64);

} // namespace prof::gcusim

#endif
