// Base of the sysfs readers: devices as sets of open counter files, re-read
// with pread() at every sample and re-listed at every rescan.
#ifndef PROF_PLUGINS_NIC_FILE_SET_READER_HPP
#define PROF_PLUGINS_NIC_FILE_SET_READER_HPP

#include "counter_file.hpp"
#include "device_reader.hpp"

#include <memory>

namespace prof::nic {

class FileSetReader : public DeviceReader {
public:
  void read(std::vector<DeviceReading> &out) override;
  std::vector<std::string> all_names() const override { return all_names_; }

protected:
  /// The open set for `name` if the last scan opened it and it still reads,
  /// handed over for the next scan; null otherwise.
  std::unique_ptr<CounterFileSet> take_open(const std::string &name);
  /// Ends a rescan: `next` becomes the devices read.
  void replace_devices(std::vector<std::unique_ptr<CounterFileSet>> next);

  /// Sets of the devices kept, rebuilt by each rescan().
  std::vector<std::unique_ptr<CounterFileSet>> devices_;
  /// Every device listed by the last rescan, kept or not.
  std::vector<std::string> all_names_;

private:
  /// Sets whose files stopped reading: their device went away.
  std::vector<const CounterFileSet *> gone_;
};

} // namespace prof::nic

#endif
