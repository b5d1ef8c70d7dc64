#include "tools/prof/cli/python_functions_list.hpp"

#include "tools/prof/cli/usage_error.hpp"

#include <prof/activity/json_reader.hpp>
#include <prof/python/dotted_name.hpp>

#include <filesystem>
#include <fstream>
#include <initializer_list>

namespace prof::cli {
namespace {

using activity::JsonType;
using activity::JsonValue;
using python::is_dotted_name;

constexpr size_t kMaxFileBytes = 1 << 20;

class FunctionList {
public:
  FunctionList(std::string file, std::string text)
      : file_(std::move(file)), text_(std::move(text)) {}

  std::string read() {
    JsonValue root;
    try {
      root = activity::parse_json(text_);
    } catch (const activity::JsonSyntaxError &e) {
      throw UsageError("--python-functions-trace " + file_ + ":" + std::to_string(e.position.line) +
                       ":" + std::to_string(e.position.column) + ": " + e.what());
    }
    if (root.type != JsonType::Array) fail(root, "expected a list of functions or modules");
    if (root.array.empty()) fail(root, "expected at least one function or module");
    for (const JsonValue &entry : root.array)
      entry.type == JsonType::String ? add_string(entry) : add_module(entry);
    return out_;
  }

private:
  [[noreturn]] void fail(const JsonValue &at, const std::string &message) const {
    const activity::TextPosition where = activity::position_of(text_, at.offset);
    throw UsageError("--python-functions-trace " + file_ + ":" + std::to_string(where.line) + ":" +
                     std::to_string(where.column) + ": " + message);
  }

  const std::string &text_of(const JsonValue &value, std::string_view what) const {
    if (value.type != JsonType::String)
      fail(value, "expected " + std::string(what) + " as a string, found " +
                      std::string(activity::json_type_name(value.type)));
    return value.string;
  }

  void check_keys(const JsonValue &object, std::initializer_list<std::string_view> keys) const {
    for (const auto &member : object.object) {
      bool known = false;
      for (std::string_view key : keys)
        known = known || member.key == key;
      if (!known) {
        std::string list;
        for (std::string_view key : keys)
          list += (list.empty() ? "\"" : ", \"") + std::string(key) + "\"";
        fail(member.value, "unknown key \"" + member.key + "\" (expected " + list + ")");
      }
    }
  }

  std::string domain_of(const JsonValue *value, const std::string &inherited) const {
    if (value == nullptr) return inherited;
    const std::string &domain = text_of(*value, "a domain");
    if (domain.empty() || domain.find_first_of(";@\n") != std::string::npos)
      fail(*value, "expected a domain name without ';', '@' or line breaks");
    return domain;
  }

  void add(const JsonValue &at, const std::string &module, const std::string &qualname,
           const std::string &domain) {
    if (!is_dotted_name(module)) fail(at, "'" + module + "' is not a module name");
    if (qualname != "*" && !is_dotted_name(qualname))
      fail(at, "'" + qualname + "' is not a function name (FUNCTION or Class.method)");
    if (module == "__main__")
      fail(at, "functions of __main__ cannot be traced: they are defined as the program runs");
    out_ += (out_.empty() ? "" : ";") + module + ":" + qualname;
    if (!domain.empty()) out_ += "@" + domain;
  }

  // "module:qualname", or "module.function" split at its last dot.
  void add_string(const JsonValue &entry) {
    const std::string &text = entry.string;
    const auto colon = text.find(':');
    const auto dot = text.rfind('.');
    if (colon == std::string::npos && dot == std::string::npos)
      fail(entry, "'" + text + "': expected MODULE.FUNCTION or MODULE:QUALNAME");
    if (colon != std::string::npos)
      add(entry, text.substr(0, colon), text.substr(colon + 1), "");
    else
      add(entry, text.substr(0, dot), text.substr(dot + 1), "");
  }

  void add_module(const JsonValue &entry) {
    if (entry.type != JsonType::Object)
      fail(entry, "expected a string or an object with \"module\", found " +
                      std::string(activity::json_type_name(entry.type)));
    check_keys(entry, {"module", "domain", "functions"});
    const JsonValue *module = entry.find("module");
    if (module == nullptr) fail(entry, "expected \"module\"");
    const std::string &module_name = text_of(*module, "\"module\"");
    const std::string domain = domain_of(entry.find("domain"), "");
    const JsonValue *functions = entry.find("functions");
    if (functions == nullptr) return add(*module, module_name, "*", domain);
    if (functions->type != JsonType::Array || functions->array.empty())
      fail(*functions, "expected \"functions\" as a list of function names");
    for (const JsonValue &function : functions->array) {
      if (function.type == JsonType::String) {
        add(function, module_name, function.string, domain);
        continue;
      }
      if (function.type != JsonType::Object)
        fail(function, "expected a function name or an object with \"function\"");
      check_keys(function, {"function", "module", "domain"});
      const JsonValue *name = function.find("function");
      if (name == nullptr) fail(function, "expected \"function\"");
      const JsonValue *own_module = function.find("module");
      add(function, own_module ? text_of(*own_module, "\"module\"") : module_name,
          text_of(*name, "\"function\""), domain_of(function.find("domain"), domain));
    }
  }

  std::string file_, text_, out_;
};

std::string read_list(const std::string &file) {
  // A FIFO or a device would block or never end: regular files only, read
  // no further than the limit.
  std::error_code error;
  if (!std::filesystem::is_regular_file(file, error))
    throw UsageError(
        "--python-functions-trace " + file +
        (std::filesystem::exists(file, error) ? ": not a regular file" : ": cannot read the file") +
        "; expected pytorch or a JSON list of functions");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("--python-functions-trace " + file + ": cannot read the file");
  std::string text(kMaxFileBytes + 1, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<size_t>(in.gcount()));
  if (text.size() > kMaxFileBytes)
    throw UsageError("--python-functions-trace " + file +
                     ": larger than 1 MiB; expected a JSON list of functions");
  return FunctionList(file, std::move(text)).read();
}

} // namespace

std::string python_functions_option(std::string_view value) {
  std::string out;
  std::string_view rest = value;
  while (true) {
    const auto comma = rest.find(',');
    const std::string item(rest.substr(0, comma));
    if (item.empty())
      throw UsageError("--python-functions-trace '" + std::string(value) +
                       "': expected pytorch or a JSON file, separated by ','");
    out += (out.empty() ? "" : ";") + (item == "pytorch" ? item : read_list(item));
    if (comma == std::string_view::npos) return out;
    rest.remove_prefix(comma + 1);
  }
}

} // namespace prof::cli
