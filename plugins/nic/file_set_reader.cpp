#include "file_set_reader.hpp"

#include <algorithm>

namespace prof::nic {

void FileSetReader::read(std::vector<DeviceReading> &out) {
  for (const auto &device : devices_) {
    if (std::find(gone_.begin(), gone_.end(), device.get()) != gone_.end()) continue;
    DeviceReading reading{device->name(), {}, device->data_unit_bytes()};
    if (device->read(reading.counters))
      out.push_back(reading);
    else
      gone_.push_back(device.get());
  }
}

std::unique_ptr<CounterFileSet> FileSetReader::take_open(const std::string &name) {
  const auto found = std::find_if(devices_.begin(), devices_.end(), [&](const auto &device) {
    return device && device->name() == name;
  });
  if (found == devices_.end()) return nullptr;
  const bool is_gone = std::find(gone_.begin(), gone_.end(), found->get()) != gone_.end();
  if (is_gone) {
    gone_.erase(std::find(gone_.begin(), gone_.end(), found->get()));
    found->reset();
    return nullptr;
  }
  return std::move(*found);
}

void FileSetReader::replace_devices(std::vector<std::unique_ptr<CounterFileSet>> next) {
  devices_ = std::move(next);
  gone_.clear();
}

} // namespace prof::nic
