// Names of native code addresses in the calling process, from the dynamic
// symbol tables the loader keeps (dladdr) and, for static functions, the
// modules' full symbol tables (read once per module), for plugins that
// unwind inside the application.
#ifndef PROF_STACKS_ADDRESS_NAME_HPP
#define PROF_STACKS_ADDRESS_NAME_HPP

#include <cstdint>
#include <string>

namespace prof::stacks {

/// Readable name of the code that return address `address` returns into
/// (the call itself is looked up, one byte before): the demangled symbol
/// when the address lies inside it (a dynamic symbol, or a function of the
/// module's .symtab), else "module+0xoffset", else
/// "[unknown] 0xaddress". Pass an exact instruction address plus one.
std::string describe_address(uintptr_t address);

} // namespace prof::stacks

#endif
