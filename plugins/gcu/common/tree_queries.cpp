#include "tree_queries.hpp"

#include <prof/activity/tree_json.hpp>
#include <prof/activity/tree_text.hpp>
#include <prof/declared_options.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <unistd.h>

namespace prof::gcu {

bool answer_tree_query(const Host &host, const DeclaredOptions &declared,
                       const prof_gcu_topology &topology, activity::ItemKind kind,
                       std::string_view what, QueryPrinter print, void *ctx) {
  const std::string noun = kind == activity::ItemKind::Activity ? "activities" : "events";
  if (what == noun) {
    print_tree(topology, kind, print, ctx);
    return true;
  }
  const std::string option = "export-" + noun;
  if (what != option) return false;
  const std::string path(declared.text(option.c_str()));
  std::string error;
  if (path.empty() || !write_tree_file(topology, kind, path, declared.flag("overwrite"), error)) {
    host.error("--" + option + ": " + (path.empty() ? "no file given" : error));
    return false;
  }
  print(ctx, (noun + " exported to " + path).c_str());
  return true;
}

void print_tree(const prof_gcu_topology &topology, activity::ItemKind kind, QueryPrinter print,
                void *ctx) {
  for (const std::string &line : activity::format_tree(topology, kind))
    print(ctx, line.c_str());
}

void print_api_domains(const prof_gcu_topology &topology, QueryPrinter print, void *ctx) {
  for (const std::string &line : activity::format_api_domains(topology))
    print(ctx, line.c_str());
}

bool write_tree_file(const prof_gcu_topology &topology, activity::ItemKind kind,
                     const std::string &path, bool overwrite, std::string &error) {
  std::error_code ec;
  if (!overwrite && std::filesystem::exists(path, ec)) {
    error = path + " already exists; use --force-overwrite to replace it";
    return false;
  }
  const std::string temporary = path + ".tmp-" + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << activity::export_tree_json(topology, kind);
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      error = "cannot write " + path;
      return false;
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    std::remove(temporary.c_str());
    error = "cannot write " + path;
    return false;
  }
  return true;
}

} // namespace prof::gcu
