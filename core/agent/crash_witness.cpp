#include "core/agent/crash_witness.hpp"

#include <dlfcn.h>
#include <signal.h>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>
#include <unwind.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace prof::agent {
namespace {

constexpr int kFaults[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};
constexpr size_t kMaxLibraries = 64, kTextBytes = 96, kMaxFrames = 40;
constexpr unsigned kSecondsToWrite = 2;

// Copied in at install: the handler reads them without allocating.
struct Library {
  char name[kTextBytes];
  char file[kTextBytes]; ///< the file's base name
};
Library g_libraries[kMaxLibraries];
std::atomic<size_t> g_library_count{0};
volatile sig_atomic_t g_fault = 0; ///< the fault being witnessed, for die_of_the_fault

void copy_text(char (&to)[kTextBytes], const char *from) {
  std::strncpy(to, from, kTextBytes - 1);
  to[kTextBytes - 1] = '\0';
}

const char *base_name(const char *path) {
  const char *slash = std::strrchr(path, '/');
  return slash ? slash + 1 : path;
}

/// One line of the witness, formatted without the C library's stdio.
class Line {
public:
  Line &text(const char *s) {
    while (*s && used_ < sizeof buffer_ - 1)
      buffer_[used_++] = *s++;
    return *this;
  }
  Line &decimal(long value) {
    if (value < 0) {
      text("-");
      value = -value;
    }
    char digits[24];
    size_t n = 0;
    do {
      digits[n++] = static_cast<char>('0' + value % 10);
      value /= 10;
    } while (value != 0);
    while (n > 0 && used_ < sizeof buffer_ - 1)
      buffer_[used_++] = digits[--n];
    return *this;
  }
  Line &hex(uintptr_t value) {
    text("0x");
    char digits[20];
    size_t n = 0;
    do {
      digits[n++] = "0123456789abcdef"[value & 0xf];
      value >>= 4;
    } while (value != 0);
    while (n > 0 && used_ < sizeof buffer_ - 1)
      buffer_[used_++] = digits[--n];
    return *this;
  }
  /// Writes the line to stderr, after "prof-agent[PID]: ".
  void write_out() {
    buffer_[used_++] = '\n';
    Line prefix;
    prefix.text("prof-agent[").decimal(getpid()).text("]: ");
    (void)!::write(STDERR_FILENO, prefix.buffer_, prefix.used_);
    (void)!::write(STDERR_FILENO, buffer_, used_);
  }

private:
  char buffer_[640];
  size_t used_ = 0;
};

const char *signal_name(int signal) {
  switch (signal) {
  case SIGSEGV:
    return "SIGSEGV";
  case SIGBUS:
    return "SIGBUS";
  case SIGILL:
    return "SIGILL";
  default:
    return "SIGFPE";
  }
}

/// The prof library `file` is, or nullptr.
const Library *prof_library(const char *file) {
  const char *name = base_name(file);
  const size_t count = g_library_count.load(std::memory_order_acquire);
  for (size_t i = 0; i < count; ++i)
    if (std::strcmp(g_libraries[i].file, name) == 0) return &g_libraries[i];
  return nullptr;
}

struct Frames {
  uintptr_t pc[kMaxFrames];
  size_t count = 0;
};

_Unwind_Reason_Code add_frame(_Unwind_Context *context, void *frames_pointer) {
  auto &frames = *static_cast<Frames *>(frames_pointer);
  if (frames.count == kMaxFrames) return _URC_END_OF_STACK;
  int before_instruction = 0;
  frames.pc[frames.count++] = _Unwind_GetIPInfo(context, &before_instruction);
  return _URC_NO_REASON;
}

/// "#I PC FILE+OFFSET [SYMBOL+OFFSET] [(prof: NAME)]"
void write_frame(size_t index, uintptr_t pc) {
  Line line;
  line.text("  #").decimal(static_cast<long>(index)).text(" ").hex(pc);
  Dl_info info{};
  if (dladdr(reinterpret_cast<void *>(pc), &info) != 0 && info.dli_fname != nullptr) {
    line.text(" ").text(base_name(info.dli_fname)).text("+");
    line.hex(pc - reinterpret_cast<uintptr_t>(info.dli_fbase));
    if (info.dli_sname != nullptr)
      line.text(" ")
          .text(info.dli_sname)
          .text("+")
          .hex(pc - reinterpret_cast<uintptr_t>(info.dli_saddr));
    if (const Library *library = prof_library(info.dli_fname))
      line.text(" (prof: ").text(library->name).text(")");
  }
  line.write_out();
}

/// If writing the witness hangs (the fault left a lock held), the process
/// still dies of its fault.
void die_of_the_fault(int) {
  const int fault = g_fault;
  signal(fault, SIG_DFL);
  raise(fault);
}

void witness(int fault, siginfo_t *info, void *context) {
  const int saved_errno = errno;
  // Sent by a process (kill, raise), not a fault: sent again, unwitnessed.
  if (info == nullptr || info->si_code <= 0) {
    signal(fault, SIG_DFL);
    raise(fault);
    errno = saved_errno;
    return;
  }
  g_fault = fault;
  signal(SIGALRM, &die_of_the_fault);
  alarm(kSecondsToWrite);

  const auto *registers = static_cast<ucontext_t *>(context);
  const auto pc = static_cast<uintptr_t>(registers->uc_mcontext.gregs[REG_RIP]);
  Frames frames;
  _Unwind_Backtrace(&add_frame, &frames);
  size_t first = 0; // the faulting frame: the frames before it are this handler's
  while (first < frames.count && frames.pc[first] != pc)
    ++first;

  Line head;
  head.text(signal_name(fault)).text(" at address ");
  head.hex(reinterpret_cast<uintptr_t>(info->si_addr)).text(" in thread ");
  head.decimal(static_cast<long>(syscall(SYS_gettid))).text(": ");
  Dl_info where{};
  const bool found = dladdr(reinterpret_cast<void *>(pc), &where) != 0 && where.dli_fname;
  if (const Library *library = found ? prof_library(where.dli_fname) : nullptr) {
    head.text("the fault is in prof's ").text(library->name).text(" (").text(library->file);
    head.text("), not in the application: please report it with this stack");
  } else {
    head.text("the fault is outside prof's libraries (in ");
    head.text(found ? base_name(where.dli_fname) : "unknown code").text(")");
    for (size_t i = first; i < frames.count; ++i) {
      Dl_info caller{};
      if (dladdr(reinterpret_cast<void *>(frames.pc[i]), &caller) == 0 || !caller.dli_fname)
        continue;
      if (const Library *library = prof_library(caller.dli_fname)) {
        head.text("; prof's ").text(library->name).text(" is on its stack (frame #");
        head.decimal(static_cast<long>(i - first)).text(")");
        break;
      }
    }
  }
  head.write_out();
  size_t index = 0;
  if (first == frames.count) { // the unwinder did not pass the fault: its own frame alone
    write_frame(index++, pc);
    first = frames.count;
  }
  for (size_t i = first; i < frames.count && frames.pc[i] != 0; ++i)
    write_frame(index++, frames.pc[i]);

  alarm(0);
  signal(fault, SIG_DFL);
  errno = saved_errno;
  // Returning runs the faulting instruction again, which now kills the process
  // with the default action: the same signal, core file and exit status.
}

} // namespace

void install_crash_witness(const ProfLibraries &libraries) {
  if (const char *off = std::getenv("PROF_CRASH_WITNESS"); off && std::strcmp(off, "0") == 0)
    return;
  size_t count = 0;
  Dl_info self{};
  if (dladdr(reinterpret_cast<const void *>(&install_crash_witness), &self) != 0 &&
      self.dli_fname != nullptr) {
    copy_text(g_libraries[count].name, "agent");
    copy_text(g_libraries[count].file, base_name(self.dli_fname));
    ++count;
  }
  for (const auto &[name, file] : libraries) {
    if (count == kMaxLibraries) break;
    copy_text(g_libraries[count].name, ("plugin " + name).c_str());
    copy_text(g_libraries[count].file, base_name(file.c_str()));
    ++count;
  }
  g_library_count.store(count, std::memory_order_release);

  struct sigaction action {};
  action.sa_sigaction = &witness;
  action.sa_flags = SA_SIGINFO | SA_NODEFER;
  sigemptyset(&action.sa_mask);
  for (const int fault : kFaults) {
    struct sigaction current {};
    if (sigaction(fault, nullptr, &current) != 0) continue;
    const bool ours = (current.sa_flags & SA_SIGINFO) && current.sa_sigaction == &witness;
    if (!ours && current.sa_handler != SIG_DFL) continue; // the application's
    sigaction(fault, &action, nullptr);
  }
}

} // namespace prof::agent
