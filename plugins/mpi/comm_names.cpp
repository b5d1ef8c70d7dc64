#include "comm_names.hpp"

#include "real_mpi.hpp"

#include <map>
#include <mutex>

namespace prof::mpi {
namespace {

// Few communicators, made and freed rarely: a map under a lock.
std::mutex g_mutex;
std::map<MPI_Comm, std::string> g_derived; // by handle
std::map<std::string, unsigned> g_copies;  // "PARENT/how" -> how many so far

std::string mpi_own_name(MPI_Comm comm) {
  static const auto get_name = pmpi<int (*)(MPI_Comm, char *, int *)>("PMPI_Comm_get_name");
  static const auto c2f = pmpi<MPI_Fint (*)(MPI_Comm)>("PMPI_Comm_c2f");
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  if (get_name != nullptr && get_name(comm, name, &length) == MPI_SUCCESS && length > 0)
    return std::string(name, static_cast<size_t>(length));
  return "communicator " + std::to_string(c2f ? c2f(comm) : 0);
}

} // namespace

std::string comm_name(MPI_Comm comm) {
  {
    std::lock_guard lock(g_mutex);
    if (auto found = g_derived.find(comm); found != g_derived.end()) return found->second;
  }
  return mpi_own_name(comm);
}

void name_split(MPI_Comm parent, int color, MPI_Comm made) {
  std::string name = comm_name(parent) + "/split " + std::to_string(color);
  std::lock_guard lock(g_mutex);
  g_derived[made] = std::move(name);
}

void name_copy(MPI_Comm parent, const char *how, MPI_Comm made) {
  const std::string base = comm_name(parent) + "/" + how;
  std::lock_guard lock(g_mutex);
  g_derived[made] = base + " " + std::to_string(++g_copies[base]);
}

void forget_name(MPI_Comm comm) {
  std::lock_guard lock(g_mutex);
  g_derived.erase(comm);
}

} // namespace prof::mpi
