// Whether the application prof launches is a CPython program: then the
// python source can sample its whole process tree alone
// (cli::let_python_sample_the_tree).
#pragma once

#include <string>

namespace prof::tool {

/// Whether `program` (a path, or a name found in PATH) runs CPython: an ELF
/// file whose dynamic string table names CPython's evaluation loop
/// (`_PyEval_EvalFrameDefault`) or needs libpython3, or a script whose `#!`
/// line names such a file, directly or through `env`. False for anything it
/// cannot read or does not recognise.
bool runs_cpython(const std::string &program);

/// The same test for one ELF file, no script or PATH lookup.
bool elf_runs_cpython(const std::string &path);

} // namespace prof::tool
