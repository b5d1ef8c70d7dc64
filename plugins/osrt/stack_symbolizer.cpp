#include "stack_symbolizer.hpp"

#include <prof/stacks/address_name.hpp>

#include <sys/mman.h>

#include <mutex>

namespace prof::osrt {

StackSymbolizer::StackSymbolizer(const Host &host) : host_(host) {
  void *pages = mmap(nullptr, kCapacity * sizeof(Entry), PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (pages != MAP_FAILED) entries_ = static_cast<Entry *>(pages);
}

StackSymbolizer::~StackSymbolizer() {
  if (entries_ != nullptr) munmap(entries_, kCapacity * sizeof(Entry));
}

prof_string_id StackSymbolizer::frame(uintptr_t address) {
  const std::size_t home = (address >> 2) * 0x9E3779B97F4A7C15ull >> 52 & (kCapacity - 1);
  if (entries_ != nullptr) {
    std::lock_guard guard(lock_);
    for (std::size_t probe = 0; probe < 16; ++probe) {
      const Entry &entry = entries_[(home + probe) & (kCapacity - 1)];
      if (entry.address == address) return entry.name;
      if (entry.address == 0) break;
    }
  }
  // Symbolize outside the lock: dladdr and demangling are slow. This runs on
  // the application's thread: no symbol table is read from a file here.
  const prof_string_id name =
      host_.intern(stacks::describe_address(address, stacks::SymbolTables::dynamic_only));
  if (entries_ == nullptr) return name;
  std::lock_guard guard(lock_);
  for (std::size_t probe = 0; probe < 16; ++probe) {
    Entry &entry = entries_[(home + probe) & (kCapacity - 1)];
    if (entry.address == 0 || entry.address == address) {
      entry = Entry{address, name};
      break;
    }
  }
  return name; // a full neighbourhood just goes uncached
}

} // namespace prof::osrt
