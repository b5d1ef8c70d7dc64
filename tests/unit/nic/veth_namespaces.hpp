// Two network namespaces joined by a veth pair, made with `ip` for one test
// and always deleted after it: names carry the test's pid, addresses are a
// private /30 that exists only inside the two namespaces.
#ifndef PROF_TESTS_NIC_VETH_NAMESPACES_HPP
#define PROF_TESTS_NIC_VETH_NAMESPACES_HPP

#include <cstdio>
#include <fcntl.h>
#include <optional>
#include <sched.h>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace prof::testing {

struct CommandResult {
  int status = -1; ///< exit status, -1 when it did not run or exit
  std::string output;
};

/// Runs `command` with sh, stdout and stderr together.
inline CommandResult run_command(const std::string &command) {
  CommandResult result;
  FILE *pipe = popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return result;
  char buffer[512];
  while (const size_t got = fread(buffer, 1, sizeof buffer, pipe))
    result.output.append(buffer, got);
  const int status = pclose(pipe);
  result.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return result;
}

/// Moves the calling thread into network namespace `name` (by its /run/netns
/// file); false on failure.
inline bool enter_netns(const std::string &name) {
  const int fd = open(("/run/netns/" + name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  const bool ok = setns(fd, CLONE_NEWNET) == 0;
  close(fd);
  return ok;
}

class VethNamespaces {
public:
  VethNamespaces() {
    const std::string id = std::to_string(getpid());
    ns_a = "prof-nic-" + id + "-a";
    ns_b = "prof-nic-" + id + "-b";
    veth_a = "pn" + id + "a";
    veth_b = "pn" + id + "b";
  }
  ~VethNamespaces() {
    // Deleting a namespace deletes the veth end in it, and with it the pair.
    if (created_a_) run_command("ip netns delete " + ns_a);
    if (created_b_) run_command("ip netns delete " + ns_b);
  }
  VethNamespaces(const VethNamespaces &) = delete;
  VethNamespaces &operator=(const VethNamespaces &) = delete;

  /// Creates everything; returns "" or what failed, with ip's own words.
  std::string create() {
    if (auto error = step("ip netns add " + ns_a)) return *error;
    created_a_ = true;
    if (auto error = step("ip netns add " + ns_b)) return *error;
    created_b_ = true;
    // No IPv6 chatter (router solicitations, DAD) on the veth: only our datagrams.
    for (const std::string &ns : {ns_a, ns_b})
      run_command("ip netns exec " + ns +
                  " sh -c 'echo 1 > /proc/sys/net/ipv6/conf/all/disable_ipv6;"
                  " echo 1 > /proc/sys/net/ipv6/conf/default/disable_ipv6'");
    const char *steps[] = {
        "ip link add {va} address {ma} netns {a} type veth peer name {vb} address {mb} netns {b}",
        "ip -n {a} addr add {ia}/30 dev {va}",
        "ip -n {b} addr add {ib}/30 dev {vb}",
        // Static neighbours: no ARP exchange either.
        "ip -n {a} neigh replace {ib} lladdr {mb} dev {va} nud permanent",
        "ip -n {b} neigh replace {ia} lladdr {ma} dev {vb} nud permanent",
        "ip -n {a} link set {va} up",
        "ip -n {b} link set {vb} up",
    };
    for (const char *command : steps)
      if (auto error = step(expand(command))) return *error;
    return "";
  }

  std::string ns_a, ns_b, veth_a, veth_b;
  static constexpr const char *kAddressA = "10.254.0.1";
  static constexpr const char *kAddressB = "10.254.0.2";
  static constexpr const char *kMacA = "02:70:72:6f:66:01";
  static constexpr const char *kMacB = "02:70:72:6f:66:02";

private:
  std::string expand(std::string text) const {
    const std::pair<const char *, std::string> keys[] = {
        {"{a}", ns_a},       {"{b}", ns_b},       {"{va}", veth_a}, {"{vb}", veth_b},
        {"{ia}", kAddressA}, {"{ib}", kAddressB}, {"{ma}", kMacA},  {"{mb}", kMacB}};
    for (const auto &[key, value] : keys)
      for (size_t at = text.find(key); at != std::string::npos; at = text.find(key, at))
        text.replace(at, std::string(key).size(), value);
    return text;
  }
  static std::optional<std::string> step(const std::string &command) {
    const CommandResult result = run_command(command);
    if (result.status == 0) return std::nullopt;
    return "`" + command + "` failed (exit " + std::to_string(result.status) +
           "): " + result.output;
  }

  bool created_a_ = false, created_b_ = false;
};

} // namespace prof::testing

#endif
