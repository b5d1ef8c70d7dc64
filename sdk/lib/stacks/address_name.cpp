#include <prof/stacks/address_name.hpp>
#include <prof/stacks/elf_file.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <string_view>
#include <unordered_map>

namespace prof::stacks {
namespace {

// A module's full symbol table is read once; one larger than this (an
// unstripped framework library) is left to its dynamic symbols.
constexpr uint64_t kMaxSymbolStrings = 16u << 20;
constexpr std::size_t kMaxFunctions = 1u << 19;

/// The functions of one module's .symtab (static functions included).
struct ModuleFunctions {
  std::string strings;
  std::vector<ElfFunction> functions;
};

ModuleFunctions read_module_functions(const std::string &path) {
  ModuleFunctions module;
  if (std::optional<ElfFile> file = ElfFile::open(path)) {
    module.strings = file->symbol_strings(SHT_SYMTAB, kMaxSymbolStrings);
    module.functions = file->functions(SHT_SYMTAB, module.strings, kMaxFunctions);
  }
  return module;
}

/// The modules read so far. Never destroyed (a thread may name a frame while
/// the process exits); the lock is held only to look up and add, never while
/// a file is read.
struct ModuleCache {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const ModuleFunctions>> modules;
};

std::atomic<ModuleCache *> g_modules{nullptr};

// In a forked child, the lock may have been held by a thread the child does
// not have: the child starts a cache of its own (the parent's is let go).
void new_cache_in_child() { g_modules.store(new ModuleCache, std::memory_order_release); }

ModuleCache &module_cache() {
  static const bool once = [] {
    g_modules.store(new ModuleCache, std::memory_order_release);
    return pthread_atfork(nullptr, nullptr, &new_cache_in_child) == 0;
  }();
  (void)once;
  return *g_modules.load(std::memory_order_acquire);
}

std::shared_ptr<const ModuleFunctions> module_functions(const std::string &path) {
  ModuleCache &cache = module_cache();
  {
    std::lock_guard lock(cache.mutex);
    if (auto found = cache.modules.find(path); found != cache.modules.end()) return found->second;
  }
  auto read = std::make_shared<const ModuleFunctions>(read_module_functions(path));
  std::lock_guard lock(cache.mutex);
  return cache.modules.try_emplace(path, std::move(read)).first->second;
}

/// The .symtab function containing link-time address `vaddr` of the module
/// at `path`, or "". Each module is read once per process (or twice, when
/// two threads ask at once).
std::string symtab_function(const std::string &path, uint64_t vaddr) {
  const std::shared_ptr<const ModuleFunctions> module = module_functions(path);
  const auto &functions = module->functions;
  auto after = std::upper_bound(functions.begin(), functions.end(), vaddr,
                                [](uint64_t a, const ElfFunction &f) { return a < f.address; });
  if (after == functions.begin()) return "";
  const ElfFunction &function = *std::prev(after);
  return vaddr < function.address + function.size ? std::string(function.name) : "";
}

std::string demangled(const char *name) {
  int status = 0;
  char *text = abi::__cxa_demangle(name, nullptr, nullptr, &status);
  std::string out = status == 0 && text != nullptr ? text : name;
  std::free(text);
  return out;
}

/// The name from the full symbol table of the module holding `site`, "".
std::string static_function_name(uintptr_t site) {
  Dl_info info{};
  link_map *map = nullptr;
  if (dladdr1(reinterpret_cast<void *>(site), &info, reinterpret_cast<void **>(&map),
              RTLD_DL_LINKMAP) == 0 ||
      map == nullptr)
    return "";
  // The main program's entry has no name: its file is /proc/self/exe.
  const std::string path =
      map->l_name != nullptr && map->l_name[0] != '\0' ? map->l_name : "/proc/self/exe";
  const std::string name = symtab_function(path, site - map->l_addr);
  return name.empty() ? "" : demangled(name.c_str());
}

} // namespace

std::string describe_address(uintptr_t address, SymbolTables tables) {
  const uintptr_t site = address - 1;
  Dl_info info{};
  void *symbol_entry = nullptr;
  char text[64];
  if (dladdr1(reinterpret_cast<void *>(site), &info, &symbol_entry, RTLD_DL_SYMENT) != 0) {
    const auto *symbol = static_cast<const ElfW(Sym) *>(symbol_entry);
    // dladdr gives the nearest exported symbol below; a static function
    // after it is not that symbol.
    const bool inside = info.dli_sname != nullptr &&
                        (symbol == nullptr || symbol->st_size == 0 ||
                         site < reinterpret_cast<uintptr_t>(info.dli_saddr) + symbol->st_size);
    if (inside) return demangled(info.dli_sname);
    if (tables == SymbolTables::dynamic_and_full)
      if (std::string name = static_function_name(site); !name.empty()) return name;
    if (info.dli_fname != nullptr && info.dli_fname[0] != '\0') {
      const char *base = std::strrchr(info.dli_fname, '/');
      std::snprintf(text, sizeof text, "+0x%zx",
                    static_cast<size_t>(site - reinterpret_cast<uintptr_t>(info.dli_fbase)));
      return std::string(base != nullptr ? base + 1 : info.dli_fname) + text;
    }
  }
  std::snprintf(text, sizeof text, "[unknown] 0x%zx", static_cast<size_t>(site));
  return text;
}

} // namespace prof::stacks
