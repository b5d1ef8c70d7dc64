#include "tools/prof/capture/python_program.hpp"

#include "tools/prof/capture/app_launcher.hpp"

#include <prof/stacks/elf_file.hpp>

#include <elf.h>
#include <fcntl.h>
#include <unistd.h>

#include <sstream>
#include <string_view>

namespace prof::tool {
namespace {

constexpr uint64_t kMaxDynamicStrings = 64u << 20;
constexpr std::size_t kMaxShebang = 256;

/// The program a `#!` line at the start of `path` runs, looked up in PATH
/// when it is `env`'s first operand; "" when the file has no such line.
std::string script_interpreter(const std::string &path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return "";
  char head[kMaxShebang] = {};
  const ssize_t size = ::pread(fd, head, sizeof head, 0);
  ::close(fd);
  if (size < 3 || head[0] != '#' || head[1] != '!') return "";
  std::string_view line(head + 2, static_cast<std::size_t>(size) - 2);
  std::istringstream words{std::string(line.substr(0, line.find('\n')))};
  std::string interpreter;
  words >> interpreter;
  if (std::string_view(interpreter).substr(interpreter.rfind('/') + 1) != "env") return interpreter;
  for (std::string operand; words >> operand;)
    if (!operand.starts_with("-") && operand.find('=') == std::string::npos)
      return AppLauncher::resolve(operand);
  return "";
}

} // namespace

bool elf_runs_cpython(const std::string &path) {
  using namespace std::string_view_literals;
  const std::optional<stacks::ElfFile> file = stacks::ElfFile::open(path);
  if (!file) return false;
  const std::string strings = file->symbol_strings(SHT_DYNSYM, kMaxDynamicStrings);
  // Entries are bounded by NULs, and the table starts with one.
  return strings.find("\0_PyEval_EvalFrameDefault\0"sv) != std::string::npos ||
         strings.find("\0libpython3."sv) != std::string::npos;
}

bool runs_cpython(const std::string &program) {
  const std::string path = AppLauncher::resolve(program);
  if (path.empty()) return false;
  if (const std::string interpreter = script_interpreter(path); !interpreter.empty())
    return elf_runs_cpython(interpreter);
  return elf_runs_cpython(path);
}

} // namespace prof::tool
