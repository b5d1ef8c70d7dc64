#include "cuda_injection.hpp"

#include <prof/injection_variable.hpp>

#include <dlfcn.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <iterator>
#include <mutex>
#include <sstream>

namespace {

std::mutex &waiting_mutex() {
  static std::mutex *mutex = new std::mutex; // never destroyed: the driver may call late
  return *mutex;
}
std::function<void()> &waiting_start() {
  static auto *start = new std::function<void()>;
  return *start;
}

} // namespace

/// The CUDA driver's injection entry, called once inside cuInit.
extern "C" __attribute__((visibility("default"))) int InitializeInjection(void) {
  // Under the lock: a source that stops meanwhile waits for its start to end.
  std::lock_guard lock(waiting_mutex());
  std::function<void()> start;
  start.swap(waiting_start());
  if (start) start();
  return 1;
}

namespace prof::cuda {

std::string point_cuda_at_this_library() {
  return point_injection_at("CUDA_INJECTION64_PATH",
                            reinterpret_cast<const void *>(&InitializeInjection), "CUDA activity");
}

void wait_for_cuda(std::function<void()> start) {
  std::lock_guard lock(waiting_mutex());
  waiting_start() = std::move(start);
}

void stop_waiting_for_cuda() {
  std::lock_guard lock(waiting_mutex());
  waiting_start() = nullptr;
}

bool cuda_driver_loaded() {
  void *driver = dlopen("libcuda.so.1", RTLD_LAZY | RTLD_NOLOAD);
  if (driver != nullptr) dlclose(driver);
  return driver != nullptr;
}

bool cuda_driver_installed(std::string &where) {
  constexpr const char *kDriver = "libcuda.so.1";
  // The loader's cache lists every library in its folders by name.
  std::ifstream cache("/etc/ld.so.cache", std::ios::binary);
  const std::string names((std::istreambuf_iterator<char>(cache)), {});
  if (names.find(kDriver) != std::string::npos) return true;
  std::string searched = "/etc/ld.so.cache";
  if (const char *path = std::getenv("LD_LIBRARY_PATH")) {
    std::stringstream folders(path);
    for (std::string folder; std::getline(folders, folder, ':');) {
      if (folder.empty()) continue;
      if (access((folder + "/" + kDriver).c_str(), R_OK) == 0) return true;
      searched += ", " + folder;
    }
  }
  where = std::string(kDriver) + " is not in " + searched;
  return false;
}

} // namespace prof::cuda
