// Names of native code addresses in the calling process, from the dynamic
// symbol tables the loader keeps (dladdr) and, for static functions, the
// modules' full symbol tables (read once per module), for plugins that
// unwind inside the application.
#ifndef PROF_STACKS_ADDRESS_NAME_HPP
#define PROF_STACKS_ADDRESS_NAME_HPP

#include <cstdint>
#include <string>

namespace prof::stacks {

/// Where names come from.
enum class SymbolTables {
  /// The loader's dynamic symbols, then each module's .symtab for static
  /// functions: the first lookup in a module reads its table from the file
  /// (milliseconds for a large one), so not for an application's threads.
  dynamic_and_full,
  /// The loader's dynamic symbols only: no file is read, no lock is taken
  /// beyond the loader's (for names taken on the application's threads).
  dynamic_only,
};

/// Readable name of the code that return address `address` returns into
/// (the call itself is looked up, one byte before): the demangled symbol
/// when the address lies inside it (a dynamic symbol, or with
/// `dynamic_and_full` a function of the module's .symtab), else
/// "module+0xoffset", else "[unknown] 0xaddress". Pass an exact instruction
/// address plus one.
std::string describe_address(uintptr_t address,
                             SymbolTables tables = SymbolTables::dynamic_and_full);

} // namespace prof::stacks

#endif
