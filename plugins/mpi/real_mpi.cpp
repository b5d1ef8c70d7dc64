#include "real_mpi.hpp"

#include <dlfcn.h>
#include <link.h>

#include <utility>

namespace prof::mpi {
namespace {

// A library loaded into a local scope (Python loads mpi4py's extension, and
// with it libmpi, RTLD_LOCAL) is not seen by RTLD_NEXT: ask each loaded
// object in turn.
int find_in_object(dl_phdr_info *info, size_t, void *data) {
  auto *query = static_cast<std::pair<const char *, void *> *>(data);
  if (info->dlpi_name == nullptr || info->dlpi_name[0] == '\0') return 0;
  void *handle = dlopen(info->dlpi_name, RTLD_LAZY | RTLD_NOLOAD);
  if (handle == nullptr) return 0;
  query->second = dlsym(handle, query->first);
  dlclose(handle);
  return query->second != nullptr;
}

} // namespace

void *find_pmpi(const char *name) {
  if (void *found = dlsym(RTLD_NEXT, name)) return found;
  std::pair<const char *, void *> query{name, nullptr};
  dl_iterate_phdr(&find_in_object, &query);
  return query.second;
}

} // namespace prof::mpi
