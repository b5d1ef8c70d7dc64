#include "tools/prof-plugin-check/importer_checks.hpp"

#include "core/import/report_import.hpp"
#include "core/report/report_error.hpp"

#include <chrono>
#include <csignal>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

namespace fs = std::filesystem;

namespace prof::plugin_check {
namespace {

constexpr size_t kFuzzBytes = 64 * 1024; // a mutated sample's first bytes
constexpr int kMutationsPerSample = 300;
constexpr auto kChildTimeLimit = std::chrono::seconds(120);

/// A small, seeded generator: the same inputs on every run.
class Shuffle {
public:
  explicit Shuffle(uint64_t seed) : state_(seed | 1) {}
  uint64_t next() {
    state_ ^= state_ << 13;
    state_ ^= state_ >> 7;
    state_ ^= state_ << 17;
    return state_;
  }
  size_t below(size_t n) { return n == 0 ? 0 : static_cast<size_t>(next() % n); }

private:
  uint64_t state_;
};

/// `bytes` changed in one of the ways a damaged file is.
std::string mutated(std::string bytes, Shuffle &random) {
  static const char *const kTokens[] = {
      "{",    "}",       "[",       "]", "\"", ",", ":", "-1", "1e999", "18446744073709551616",
      "null", "\\u0000", "\xff\xff"};
  if (bytes.size() > kFuzzBytes) bytes.resize(kFuzzBytes);
  const size_t at = random.below(bytes.size() + 1);
  switch (random.below(6)) {
  case 0: // flip a few bytes
    for (size_t i = 0, n = 1 + random.below(8); i < n && !bytes.empty(); ++i)
      bytes[random.below(bytes.size())] = static_cast<char>(random.next());
    break;
  case 1: // cut
    bytes.resize(at);
    break;
  case 2: // insert a token
    bytes.insert(at, kTokens[random.below(std::size(kTokens))]);
    break;
  case 3: // delete a run
    bytes.erase(at, 1 + random.below(64));
    break;
  case 4: // repeat a run
    if (!bytes.empty())
      bytes.insert(at, bytes.substr(random.below(bytes.size()), random.below(256)));
    break;
  default: // overwrite a varint-sized run with large values
    for (size_t i = at; i < bytes.size() && i < at + 10; ++i)
      bytes[i] = '\xff';
    break;
  }
  return bytes;
}

void write_file(const fs::path &path, const std::string &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::string read_file(const fs::path &path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

ImporterChecks::ImporterChecks(const core::PluginInfo &plugin, fs::path scratch)
    : plugin_(plugin), scratch_(std::move(scratch)) {}

void ImporterChecks::add_sample(const std::string &origin, std::string bytes) {
  samples_.push_back({origin, std::move(bytes)});
}

std::string ImporterChecks::import_bytes(const std::string &name, const std::string &bytes,
                                         uint64_t *events) {
  const fs::path report = scratch_ / ("import-" + std::to_string(++runs_) + ".profrep");
  std::string problem;
  try {
    const core::ImportOutcome outcome =
        core::import_file(plugin_, {name, bytes, std::nullopt, std::nullopt}, report.string());
    if (events != nullptr) *events = outcome.events;
    if (outcome.invalid_events > 0)
      problem = std::to_string(outcome.invalid_events) + " events named undeclared tracks";
  } catch (const core::ImportRefused &e) {
    const std::string line = e.what();
    problem = line.empty()                           ? "refused with an empty reason"
              : line.find('\n') != std::string::npos ? "refused with a reason of several lines"
                                                     : "refused: " + line;
  } catch (const report::ReportError &e) {
    problem = std::string("the report could not be written: ") + e.what();
  } catch (const std::exception &e) {
    problem = std::string("threw past the ABI: ") + e.what();
  }
  std::error_code ec;
  fs::remove(report, ec);
  return problem;
}

void ImporterChecks::check_probe(RuleReport &report) {
  const auto probe = [&](const char *name, std::string_view head) {
    return plugin_.importer->probe(name, reinterpret_cast<const uint8_t *>(head.data()),
                                   head.size());
  };
  std::vector<std::string> problems;
  if (const uint32_t score = probe("empty", ""); score != 0)
    problems.push_back("it answers " + std::to_string(score) + " for an empty file");
  if (const uint32_t score = probe("notes.txt", "plain text, and no trace at all\n"); score != 0)
    problems.push_back("it answers " + std::to_string(score) + " for a line of plain text");
  if (const uint32_t score = probe("zeros.bin", std::string(64, '\0')); score != 0)
    problems.push_back("it answers " + std::to_string(score) + " for 64 zero bytes");
  report.verdict("importer.probe-unknown", problems, "0 for an empty file, text and zeros");
}

void ImporterChecks::check_samples(RuleReport &report) {
  std::vector<std::string> problems;
  std::string counts;
  for (const Sample &sample : samples_) {
    const std::string_view head = std::string_view(sample.bytes).substr(0, core::kProbeBytes);
    const uint32_t score = plugin_.importer->probe(
        sample.origin.c_str(), reinterpret_cast<const uint8_t *>(head.data()), head.size());
    if (score == 0) {
      problems.push_back("its probe answers 0 for " + sample.origin);
      continue;
    }
    uint64_t events = 0;
    if (std::string problem = import_bytes(sample.origin, sample.bytes, &events); !problem.empty())
      problems.push_back(sample.origin + ": " + problem);
    else if (events == 0)
      problems.push_back(sample.origin + " imported with no events");
    else
      counts +=
          (counts.empty() ? "" : ", ") + std::to_string(events) + " events from " + sample.origin;
  }
  report.verdict("importer.samples", problems, counts);
}

void ImporterChecks::check_in_child(RuleReport &report, const std::string &rule, bool mutate) {
  const fs::path input = fs::absolute(scratch_ / (rule + ".input"));
  const fs::path verdict = scratch_ / (rule + ".verdict");
  std::fflush(nullptr);
  const pid_t child = ::fork();
  if (child < 0) {
    report.skip(rule, "cannot fork");
    return;
  }
  if (child == 0) {
    int inputs = 0, refused = 0;
    Shuffle random(0x5eed);
    for (const Sample &sample : samples_) {
      const int count = mutate ? kMutationsPerSample : 17;
      for (int i = 0; i < count; ++i) {
        const std::string bytes =
            mutate ? mutated(sample.bytes, random)
                   : sample.bytes.substr(0, sample.bytes.size() * static_cast<size_t>(i) / 17);
        write_file(input, bytes);
        const std::string problem = import_bytes(sample.origin, bytes);
        ++inputs;
        if (problem.starts_with("refused: ")) {
          ++refused;
        } else if (!problem.empty()) {
          write_file(verdict, problem + " (the input is in " + input.string() + ")");
          std::_Exit(3);
        }
      }
    }
    write_file(verdict, std::to_string(inputs) + " inputs, " + std::to_string(refused) +
                            " refused with one line, none crashed");
    std::_Exit(0);
  }
  const auto deadline = std::chrono::steady_clock::now() + kChildTimeLimit;
  int status = 0;
  while (::waitpid(child, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(child, SIGKILL);
      ::waitpid(child, &status, 0);
      const fs::path kept = fs::temp_directory_path() / ("prof-plugin-check-" + rule + ".input");
      std::error_code ec;
      fs::copy_file(input, kept, fs::copy_options::overwrite_existing, ec);
      report.fail(rule, "still importing after " + std::to_string(kChildTimeLimit.count()) +
                            " s; the input is kept in " + kept.string());
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) {
    report.pass(rule, read_file(verdict));
  } else if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
    report.fail(rule, read_file(verdict));
  } else {
    const fs::path kept = fs::temp_directory_path() / ("prof-plugin-check-" + rule + ".input");
    std::error_code ec;
    fs::copy_file(input, kept, fs::copy_options::overwrite_existing, ec);
    report.fail(rule,
                (WIFSIGNALED(status) ? "crashed with signal " + std::to_string(WTERMSIG(status))
                                     : "ended with status " + std::to_string(WEXITSTATUS(status))) +
                    " on the input kept in " + kept.string());
  }
}

void ImporterChecks::check(RuleReport &report) {
  check_probe(report);
  if (samples_.empty()) {
    for (const char *rule : {"importer.samples", "importer.cut-input", "importer.fuzz"})
      report.skip(rule, "no sample: give one with --sample FILE");
    return;
  }
  check_samples(report);
  check_in_child(report, "importer.cut-input", false);
  check_in_child(report, "importer.fuzz", true);
}

} // namespace prof::plugin_check
