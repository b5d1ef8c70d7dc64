// Netdev counters from /proc/net/dev, kept open and re-read with pread():
// one read covers every interface, and interfaces that come and go show up
// at the next read.
#ifndef PROF_PLUGINS_NIC_PROC_NET_DEV_READER_HPP
#define PROF_PLUGINS_NIC_PROC_NET_DEV_READER_HPP

#include "counter_file.hpp"
#include "device_filter.hpp"
#include "device_reader.hpp"

#include <functional>
#include <map>

namespace prof::nic {

/// One interface line of /proc/net/dev.
struct ProcNetDevLine {
  std::string_view name;
  CounterSet counters; ///< bytes and packets both ways
};

/// Parses the text of /proc/net/dev into `out` (cleared first); lines it
/// cannot read are skipped. Names point into `text`.
void parse_proc_net_dev(std::string_view text, std::vector<ProcNetDevLine> &out);

class ProcNetDevReader final : public DeviceReader {
public:
  /// `path` is normally "/proc/net/dev"; `class_net_dir` is where loopback
  /// devices are recognized by type. The file is opened here: valid() says
  /// whether that worked (errno then says why not).
  ProcNetDevReader(const std::string &path, std::string class_net_dir, const DeviceFilter &filter);

  bool valid() const { return file_.valid(); }
  void rescan() override {}
  void read(std::vector<DeviceReading> &out) override;
  std::vector<std::string> all_names() const override;

private:
  FileHandle file_;
  std::string class_net_dir_;
  const DeviceFilter &filter_;
  std::string text_;
  std::vector<ProcNetDevLine> lines_;
  std::map<std::string, bool, std::less<>> kept_; ///< filter verdict per name seen
};

} // namespace prof::nic

#endif
