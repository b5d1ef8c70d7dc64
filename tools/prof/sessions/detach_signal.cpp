#include "tools/prof/sessions/detach_signal.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace prof::tool {

void signal_detach(int fd) {
  const uint64_t one = 1;
  (void)!write(fd, &one, sizeof one);
}

DetachSignal::DetachSignal() : fd(eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) {}

DetachSignal::~DetachSignal() {
  if (fd >= 0) close(fd);
}

} // namespace prof::tool
