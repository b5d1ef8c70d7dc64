// The MPI library's own entry points (PMPI_*), found at run time: the
// plugin does not link the library, so a process without MPI loads it too.
#ifndef PROF_PLUGINS_MPI_REAL_MPI_HPP
#define PROF_PLUGINS_MPI_REAL_MPI_HPP

namespace prof::mpi {

/// The address of `name` (a PMPI_* function) in the loaded MPI library, or
/// nullptr when none is loaded.
void *find_pmpi(const char *name);

/// `name` as a function of type F, looked up once.
template <class F> F pmpi(const char *name) { return reinterpret_cast<F>(find_pmpi(name)); }

} // namespace prof::mpi

#endif
