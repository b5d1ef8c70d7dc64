#include <prof/stacks/address_name.hpp>

#include <cxxabi.h>
#include <dlfcn.h>
#include <elf.h>
#include <link.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace prof::stacks {

std::string describe_address(uintptr_t address) {
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
    if (inside) {
      int status = 0;
      char *demangled = abi::__cxa_demangle(info.dli_sname, nullptr, nullptr, &status);
      std::string name = status == 0 && demangled != nullptr ? demangled : info.dli_sname;
      std::free(demangled);
      return name;
    }
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
