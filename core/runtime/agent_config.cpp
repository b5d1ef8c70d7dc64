#include "core/runtime/agent_config.hpp"

#include <charconv>
#include <cstdio>
#include <cstdlib>

namespace prof::core {

namespace {
constexpr std::string_view kFirstLine = "prof-agent-config 1";

std::string escape(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if (c <= ' ' || c == '%' || c >= 0x7f) {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    } else {
      out += static_cast<char>(c);
    }
  }
  return out.empty() ? "%" : out; // "%" alone: the empty string
}

bool unescape(std::string_view text, std::string &out) {
  out.clear();
  if (text == "%") return true;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] != '%') {
      out += text[i];
      continue;
    }
    if (i + 2 >= text.size()) return false;
    unsigned value = 0;
    if (std::sscanf(std::string(text.substr(i + 1, 2)).c_str(), "%2X", &value) != 1) return false;
    out += static_cast<char>(value);
    i += 2;
  }
  return true;
}

std::vector<std::string_view> words(std::string_view line) {
  std::vector<std::string_view> out;
  size_t start = 0;
  while (start <= line.size()) {
    size_t end = line.find(' ', start);
    if (end == std::string_view::npos) end = line.size();
    if (end > start) out.push_back(line.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

// Digits only, within 64 bits.
bool whole_number(const std::string &text, uint64_t *value) {
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), *value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}
} // namespace

std::string AgentConfig::encode() const {
  std::string out(kFirstLine);
  out += "\nsession " + escape(session) + "\ntarget " + std::to_string(target_pid) + "\ncommand " +
         escape(command) + "\nhost " + escape(host) + "\n";
  if (!step_marker_name.empty())
    out += "step_marker " + escape(step_marker_name) + " " + escape(step_marker_domain) + "\n";
  if (answers_dumps) out += "answers_dumps\n";
  if (stall_ns != 0) out += "stall " + std::to_string(stall_ns) + "\n";
  for (const AgentPlugin &p : plugins) {
    out += "plugin " + escape(p.name) + " " + escape(p.path) + "\n";
    for (const auto &[key, value] : p.options)
      out += "option " + escape(p.name) + " " + escape(key) + " " + escape(value) + "\n";
  }
  return out;
}

std::optional<AgentConfig> AgentConfig::decode(std::string_view text, std::string *error) {
  AgentConfig config;
  size_t line_no = 0;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(start, end - start);
    start = end + 1;
    ++line_no;
    if (line_no == 1) {
      if (line != kFirstLine) {
        *error = "agent configuration has an unknown format";
        return std::nullopt;
      }
      continue;
    }
    const auto w = words(line);
    std::string a, b, c;
    const auto bad = [&] {
      *error = "agent configuration line " + std::to_string(line_no) + " is malformed";
      return std::nullopt;
    };
    if (w.size() == 1 && w[0] == "answers_dumps") {
      config.answers_dumps = true;
    } else if (w.size() == 2 && unescape(w[1], a)) {
      if (w[0] == "session")
        config.session = a;
      else if (w[0] == "command")
        config.command = a;
      else if (w[0] == "host")
        config.host = a;
      else if (w[0] == "target")
        config.target_pid = std::atoi(a.c_str());
      else if (w[0] != "stall" || !whole_number(a, &config.stall_ns))
        return bad();
    } else if (w.size() == 3 && w[0] == "step_marker" && unescape(w[1], a) && unescape(w[2], b)) {
      config.step_marker_name = a;
      config.step_marker_domain = b;
    } else if (w.size() == 3 && w[0] == "plugin" && unescape(w[1], a) && unescape(w[2], b)) {
      config.plugins.push_back({a, b, {}});
    } else if (w.size() == 4 && w[0] == "option" && unescape(w[1], a) && unescape(w[2], b) &&
               unescape(w[3], c)) {
      if (config.plugins.empty() || config.plugins.back().name != a) return bad();
      config.plugins.back().options.emplace_back(b, c);
    } else {
      return bad();
    }
  }
  if (line_no == 0) {
    *error = "agent configuration is empty";
    return std::nullopt;
  }
  return config;
}

} // namespace prof::core
