// Decodes a trace file with `protoc --decode=perfetto.protos.Trace` against
// minimal_trace.proto and parses protoc's text output into a tree, so tests
// check fields by name instead of by byte.
#ifndef PROF_TESTS_SUPPORT_DECODED_TRACE_HPP
#define PROF_TESTS_SUPPORT_DECODED_TRACE_HPP

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace prof::testing {

/// One field of protoc's text format: a scalar (value) or a message (children).
struct TextNode {
  std::string name;
  std::string value; ///< unquoted for strings
  std::vector<TextNode> children;

  std::vector<const TextNode *> all(const std::string &field) const {
    std::vector<const TextNode *> found;
    for (const TextNode &child : children)
      if (child.name == field) found.push_back(&child);
    return found;
  }
  const TextNode *first(const std::string &field) const {
    for (const TextNode &child : children)
      if (child.name == field) return &child;
    return nullptr;
  }
  /// Value of scalar `field`, "" when absent.
  std::string get(const std::string &field) const {
    const TextNode *node = first(field);
    return node != nullptr ? node->value : "";
  }
  bool has(const std::string &field) const { return first(field) != nullptr; }
};

inline TextNode parse_text_format(const std::string &text) {
  TextNode root;
  std::vector<TextNode *> open{&root};
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const size_t start = line.find_first_not_of(' ');
    if (start == std::string::npos) continue;
    line = line.substr(start);
    if (line == "}") {
      if (open.size() > 1) open.pop_back();
      continue;
    }
    if (line.size() > 2 && line.compare(line.size() - 2, 2, " {") == 0) {
      open.back()->children.push_back({line.substr(0, line.size() - 2), "", {}});
      open.push_back(&open.back()->children.back());
      continue;
    }
    const size_t colon = line.find(": ");
    if (colon == std::string::npos) continue;
    std::string value = line.substr(colon + 2);
    if (value.size() >= 2 && value.front() == '"' && value.back() == '"')
      value = value.substr(1, value.size() - 2);
    open.back()->children.push_back({line.substr(0, colon), value, {}});
  }
  return root;
}

/// Runs protoc on `trace_path`; fails the test (with protoc's message) when
/// protoc is missing or rejects the file.
inline TextNode decode_trace(const std::string &trace_path, std::string *raw_text = nullptr) {
  const std::string protoc = PROF_PROTOC_EXECUTABLE;
  if (protoc.empty()) {
    ADD_FAILURE() << "protoc not found at configure time: install protobuf-compiler "
                     "(Debian) and re-run cmake; the perfetto decode tests need it";
    return {};
  }
  // protoc's output goes beside the test's temporary files, then away.
  const std::string scratch = (std::filesystem::temp_directory_path() /
                               ("prof-perfetto-decode-" + std::to_string(::getpid())))
                                  .string();
  const std::string out = scratch + ".txt", err = scratch + ".err";
  const std::string command = "'" + protoc + "' --decode=perfetto.protos.Trace --proto_path='" +
                              std::string(PROF_SOURCE_DIR "/tests/support") +
                              "' minimal_trace.proto < '" + trace_path + "' > '" + out + "' 2> '" +
                              err + "'";
  const int status = std::system(command.c_str());
  std::ifstream decoded(out), errors(err);
  std::stringstream text, error_text;
  text << decoded.rdbuf();
  error_text << errors.rdbuf();
  std::filesystem::remove(out);
  std::filesystem::remove(err);
  if (status != 0)
    ADD_FAILURE() << "protoc --decode failed (" << status << "): " << error_text.str();
  if (raw_text != nullptr) *raw_text = text.str();
  return parse_text_format(text.str());
}

} // namespace prof::testing

#endif
