#include "core/agent/own_command_line.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>

namespace prof::agent {

std::string own_command_line() {
  std::string text;
  const int fd = open("/proc/self/cmdline", O_RDONLY | O_CLOEXEC);
  if (fd < 0) return text;
  char buffer[4096];
  for (;;) {
    const ssize_t got = read(fd, buffer, sizeof buffer);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;
    text.append(buffer, static_cast<size_t>(got));
  }
  close(fd);
  while (!text.empty() && text.back() == '\0')
    text.pop_back();
  for (char &c : text)
    if (c == '\0' || c == '\t' || c == '\n') c = ' ';
  return text;
}

} // namespace prof::agent
