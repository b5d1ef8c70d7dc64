#include "core/plugin_host/output_name.hpp"

#include "core/plugin_host/input_error.hpp"

#include <prof/launcher_rank.hpp>

#include <cstdlib>
#include <filesystem>

namespace prof::core {
namespace {

std::string start_time(std::time_t start) {
  std::tm local{};
  localtime_r(&start, &local);
  char text[32];
  std::strftime(text, sizeof text, "%Y%m%d-%H%M%S", &local);
  return text;
}

// Expands everything but %i, which is marked with '\0' for the caller.
std::string expand_fixed(const std::string &pattern, const OutputNameFacts &facts) {
  std::string out;
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%') {
      out += pattern[i];
      continue;
    }
    const char macro = i + 1 < pattern.size() ? pattern[i + 1] : '\0';
    ++i;
    switch (macro) {
    case 'p':
      out += std::to_string(facts.pid);
      break;
    case 'h':
      out += facts.host;
      break;
    case 't':
      out += start_time(facts.start);
      break;
    case 'i':
      out += '\0';
      break;
    case '%':
      out += '%';
      break;
    case 'q': {
      const size_t close = pattern.find('}', i);
      if (i + 1 >= pattern.size() || pattern[i + 1] != '{' || close == std::string::npos)
        throw InputError("output name '" + pattern + "': %q needs a variable, as in %q{RANK}");
      const std::string name = pattern.substr(i + 2, close - i - 2);
      const auto given = facts.variables.find(name);
      const char *value =
          given != facts.variables.end() ? given->second.c_str() : std::getenv(name.c_str());
      if (name.empty() || value == nullptr)
        throw InputError("output name '" + pattern + "': environment variable '" + name +
                         "' is not set");
      out += value;
      i = close;
      break;
    }
    default:
      throw InputError("output name '" + pattern + "': unknown macro '%" +
                       std::string(macro ? 1 : 0, macro) + "' (known: %p %h %t %i %q{ENV} %%)");
    }
  }
  return out;
}

std::string with_index(const std::string &name, unsigned index) {
  std::string out;
  for (char c : name)
    out += c == '\0' ? std::to_string(index) : std::string(1, c);
  return out;
}

} // namespace

std::string expand_output_name(const std::string &pattern, const OutputNameFacts &facts,
                               const std::string &extension) {
  const std::string name = expand_fixed(pattern, facts);
  if (name.find('\0') == std::string::npos) return name;
  for (unsigned index = 1;; ++index) {
    const std::string candidate = with_index(name, index);
    const bool has_extension = std::filesystem::path(candidate).has_extension();
    std::error_code ec;
    if (!std::filesystem::exists(has_extension ? candidate : candidate + extension, ec))
      return candidate;
  }
}

std::string rank_variable_to_split(const std::string &pattern) {
  for (const char *variable : kLauncherRankVariables) {
    if (std::getenv(variable) != nullptr) continue;
    if (pattern.find("%q{" + std::string(variable) + "}") != std::string::npos) return variable;
  }
  return "";
}

bool output_path_allowed(const std::string &path, bool force, std::string *error) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (fs::is_directory(path, ec)) {
    *error = "output file '" + path + "' is a directory";
    return false;
  }
  if (fs::exists(path, ec) && !force) {
    *error = "output file '" + path + "' already exists (use --force-overwrite)";
    return false;
  }
  fs::path folder = fs::path(path).parent_path();
  if (!folder.empty() && !fs::is_directory(folder, ec)) {
    *error = "cannot write '" + path + "': folder '" + folder.string() + "' does not exist";
    return false;
  }
  return true;
}

} // namespace prof::core
