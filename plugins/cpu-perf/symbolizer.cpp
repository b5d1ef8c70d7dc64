#include "symbolizer.hpp"

#include <cxxabi.h>
#include <sys/auxv.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>

namespace prof::cpu_perf {
namespace {

std::string base_name(const std::string &path) {
  const auto slash = path.rfind('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

bool ends_with(const std::string &s, const char *suffix) {
  const size_t n = std::strlen(suffix);
  return s.size() >= n && s.compare(s.size() - n, n, suffix) == 0;
}

/// This process's vDSO image: the kernel maps the same one into every process.
std::vector<uint8_t> own_vdso() {
  const auto base = getauxval(AT_SYSINFO_EHDR);
  if (base == 0) return {};
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    if (!ends_with(line, "[vdso]")) continue;
    unsigned long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%lx-%lx", &lo, &hi) != 2 || lo != base || hi <= lo) break;
    const auto *p = reinterpret_cast<const uint8_t *>(lo);
    return std::vector<uint8_t>(p, p + (hi - lo));
  }
  return {};
}

} // namespace

std::string demangle(const std::string &name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  char *text = abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status);
  if (status != 0 || text == nullptr) {
    std::free(text);
    return name;
  }
  std::string out(text);
  std::free(text);
  return out;
}

std::string unknown_in_module(const std::string &path, uint64_t offset) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "+0x%llx", static_cast<unsigned long long>(offset));
  std::string name = base_name(path);
  if (ends_with(name, " (deleted)")) name.resize(name.size() - 10);
  return "[unknown] " + name + hex;
}

std::string unknown_address(uint64_t addr) {
  char hex[32];
  std::snprintf(hex, sizeof hex, "0x%llx", static_cast<unsigned long long>(addr));
  return std::string("[unknown] ") + hex;
}

ElfModule *Symbolizer::module(const std::string &path) {
  auto found = modules_.find(path);
  if (found != modules_.end()) return found->second.get();
  std::unique_ptr<ElfModule> m;
  if (path == "[vdso]")
    m = ElfModule::open_image(own_vdso());
  else if (!path.empty() && path[0] == '/' && !ends_with(path, " (deleted)"))
    m = ElfModule::open_file(path);
  ElfModule *raw = m.get();
  modules_.emplace(path, std::move(m));
  return raw;
}

std::string Symbolizer::function(const std::string &path, uint64_t offset) {
  const auto key = std::make_pair(path, offset);
  auto found = names_.find(key);
  if (found != names_.end()) return found->second;
  std::string name;
  ElfModule *m = module(path);
  const auto vaddr = m ? m->vaddr_of(offset) : std::nullopt;
  const std::string *symbol = vaddr ? m->symbol_at(*vaddr) : nullptr;
  name = symbol ? demangle(*symbol) : unknown_in_module(path, offset);
  names_.emplace(key, name);
  return name;
}

std::string Symbolizer::kernel_function(uint64_t addr) {
  if (!kernel_loaded_) {
    kernel_loaded_ = true;
    kernel_.load();
  }
  const std::string *name = kernel_.lookup(addr);
  return name ? *name : std::string("[kernel]");
}

} // namespace prof::cpu_perf
