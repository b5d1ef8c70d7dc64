#include "core/runtime/descriptor_check.hpp"

#include <cctype>
#include <cstddef>
#include <set>

namespace prof::core {

namespace {
bool empty(const char *text) { return text == nullptr || *text == '\0'; }
std::string abi(unsigned major, unsigned minor) {
  return std::to_string(major) + "." + std::to_string(minor);
}
} // namespace

std::string check_option_desc(const prof_option_desc &option) {
  if (empty(option.name)) return "an option has an empty name";
  const std::string name = option.name;
  if (option.type < PROF_OPTION_BOOL || option.type > PROF_OPTION_ENUM)
    return "option '" + name + "' has unknown type " + std::to_string(option.type);
  if (option.type == PROF_OPTION_ENUM && empty(option.choices))
    return "option '" + name + "' is an enum without choices";
  if (empty(option.help)) return "option '" + name + "' has no help text";
  return {};
}

const prof_importer_vtable *descriptor_importer(const prof_plugin_descriptor *d) {
  if (d->struct_size < offsetof(prof_plugin_descriptor, importer) + sizeof(d->importer))
    return nullptr;
  return d->importer;
}

std::string check_descriptor(const prof_plugin_descriptor *d) {
  if (d == nullptr) return PROF_PLUGIN_ENTRY_SYMBOL " returned no descriptor";
  if (d->abi_major != PROF_ABI_MAJOR)
    return "built for plugin ABI " + abi(d->abi_major, d->abi_minor) + ", this prof supports " +
           abi(PROF_ABI_MAJOR, 0) + " to " + abi(PROF_ABI_MAJOR, PROF_ABI_MINOR);
  if (d->abi_minor > PROF_ABI_MINOR)
    return "built for plugin ABI " + abi(d->abi_major, d->abi_minor) + ", newer than this prof's " +
           abi(PROF_ABI_MAJOR, PROF_ABI_MINOR);
  if (d->struct_size < kMinimumDescriptorSize)
    return "descriptor is " + std::to_string(d->struct_size) + " bytes, expected at least " +
           std::to_string(kMinimumDescriptorSize);
  if (empty(d->name)) return "descriptor has an empty name";
  if (empty(d->version)) return "descriptor of '" + std::string(d->name) + "' has an empty version";
  if (empty(d->description))
    return "descriptor of '" + std::string(d->name) + "' has an empty description";
  const std::string name = d->name;
  for (char c : name)
    if (!(isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_'))
      return "plugin name '" + name + "' may only hold letters, digits, '-' and '_'";
  if (d->kind == PROF_KIND_SOURCE) {
    if (d->source == nullptr || d->source->create == nullptr || d->source->destroy == nullptr ||
        d->source->start == nullptr || d->source->stop == nullptr)
      return "source plugin '" + name + "' lacks create/destroy/start/stop";
  } else if (d->kind == PROF_KIND_EXPORTER) {
    if (d->exporter == nullptr || d->exporter->create == nullptr ||
        d->exporter->destroy == nullptr || d->exporter->consume == nullptr)
      return "exporter plugin '" + name + "' lacks create/destroy/consume";
  } else if (d->kind != PROF_KIND_IMPORTER) {
    return "plugin '" + name + "' has unknown kind " + std::to_string(d->kind);
  }
  const prof_importer_vtable *importer = descriptor_importer(d);
  if (d->kind == PROF_KIND_IMPORTER && importer == nullptr)
    return "importer plugin '" + name + "' has no importer functions";
  if (importer != nullptr && (importer->probe == nullptr || importer->read == nullptr))
    return "plugin '" + name + "' has an importer without probe/read";
  if (d->scope != PROF_SCOPE_SYSTEM && d->scope != PROF_SCOPE_PROCESS)
    return "plugin '" + name + "' has unknown scope " + std::to_string(d->scope);
  if (d->option_count > 0 && d->options == nullptr)
    return "plugin '" + name + "' declares " + std::to_string(d->option_count) +
           " options but no option table";
  std::set<std::string> seen;
  for (uint32_t i = 0; i < d->option_count; ++i) {
    std::string problem = check_option_desc(d->options[i]);
    if (!problem.empty()) return "plugin '" + name + "': " + problem;
    if (!seen.insert(d->options[i].name).second)
      return "plugin '" + name + "' declares option '" + d->options[i].name + "' twice";
  }
  return {};
}

} // namespace prof::core
