#include "core/call_time_limit.hpp"

#include <cstdio>
#include <unistd.h>

namespace prof::core {

CallTimeLimit::CallTimeLimit(std::string what, std::chrono::milliseconds limit)
    : watcher_([this, what = std::move(what), limit] {
        std::unique_lock lock(mutex_);
        if (returned_.wait_for(lock, limit, [this] { return done_; })) return;
        const std::string line =
            "prof: " + what + " did not return within " +
            std::to_string(std::chrono::duration_cast<std::chrono::seconds>(limit).count()) +
            " s; the plugin hangs, and prof gives up\n";
        (void)!write(STDERR_FILENO, line.data(), line.size());
        _exit(1);
      }) {}

CallTimeLimit::~CallTimeLimit() {
  {
    std::lock_guard lock(mutex_);
    done_ = true;
  }
  returned_.notify_one();
  watcher_.join();
}

} // namespace prof::core
