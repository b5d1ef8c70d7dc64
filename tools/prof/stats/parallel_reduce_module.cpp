#include "tools/prof/stats/parallel_reduce_module.hpp"

#include <boost/dll/runtime_symbol_info.hpp>

#include <cstdlib>
#include <dlfcn.h>
#include <filesystem>
#include <stdexcept>
#include <string>

namespace prof::tool {
namespace {

std::string module_path() {
  if (const char *path = std::getenv("PROF_PARALLEL_REDUCE_PATH"); path && *path) return path;
  boost::dll::fs::error_code ec;
  const std::filesystem::path exe = boost::dll::program_location(ec);
  return (exe.parent_path() / ".." / "lib" / "prof" / "libprof-parallel-reduce.so")
      .lexically_normal()
      .string();
}

decltype(&prof_parallel_reduce) load() {
  const std::string path = module_path();
  // Kept loaded: TBB's worker threads outlive the scan.
  void *handle = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
  const char *why = handle ? nullptr : ::dlerror();
  void *function = handle ? ::dlsym(handle, "prof_parallel_reduce") : nullptr;
  if (function == nullptr)
    throw std::runtime_error("cannot load " + path + " (" +
                             (why ? why : "no prof_parallel_reduce in it") +
                             "): prof stats scans reports with it");
  return reinterpret_cast<decltype(&prof_parallel_reduce)>(function);
}

} // namespace

decltype(&prof_parallel_reduce) parallel_reduce_function() {
  static const decltype(&prof_parallel_reduce) function = load();
  return function;
}

} // namespace prof::tool
