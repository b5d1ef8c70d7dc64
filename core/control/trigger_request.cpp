#include "core/control/trigger_request.hpp"

#include <prof/activity/json_reader.hpp>
#include <prof/json_text.hpp>

#include <cmath>
#include <cstdio>

namespace prof::control {
namespace {

using activity::JsonType;
using activity::JsonValue;

bool valid_id(std::string_view id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-')
      return false;
  return true;
}

// Whether `text` is well-formed UTF-8 (the reader passes raw bytes through)
// without control characters (a NUL would cut an argument short).
bool utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const auto byte = static_cast<unsigned char>(text[i]);
    if (byte < 0x20) return false;
    if (byte < 0x80) {
      ++i;
      continue;
    }
    const size_t length = json_detail::utf8_length(text, i);
    if (length == 0) return false;
    i += length;
  }
  return true;
}

// A whole number from 1 to 1e9.
std::optional<uint64_t> count_of(const JsonValue &value) {
  if (value.type != JsonType::Number || value.number < 1 || value.number > 1e9 ||
      std::floor(value.number) != value.number)
    return std::nullopt;
  return static_cast<uint64_t>(value.number);
}

std::string format_seconds(double seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds);
  return text;
}

} // namespace

std::string encode_trigger_request(const TriggerRequest &request) {
  std::string out = "{\"id\": ";
  append_json_string(out, request.id);
  if (request.capture_steps) {
    out += ", \"capture_steps\": ";
    append_uint(out, request.capture_steps);
  }
  if (request.at_step) {
    out += ", \"at_step\": ";
    append_uint(out, request.at_step);
  }
  if (request.duration_s > 0) out += ", \"duration_s\": " + format_seconds(request.duration_s);
  out += ", \"options\": [";
  for (size_t i = 0; i < request.options.size(); ++i) {
    if (i) out += ", ";
    append_json_string(out, request.options[i]);
  }
  out += "], \"output\": ";
  append_json_string(out, request.output);
  out += "}\n";
  return out;
}

std::optional<TriggerRequest> parse_trigger_request(std::string_view text, std::string *error) {
  const auto fail = [error](std::string why) -> std::optional<TriggerRequest> {
    *error = std::move(why);
    return std::nullopt;
  };
  if (text.size() > kTriggerRequestMaxBytes)
    return fail("expected at most " + std::to_string(kTriggerRequestMaxBytes) + " bytes");
  JsonValue root;
  try {
    root = activity::parse_json(text, 8);
  } catch (const activity::JsonSyntaxError &e) {
    return fail("line " + std::to_string(e.position.line) + ": " + e.what());
  }
  if (root.type != JsonType::Object) return fail("expected a JSON object");
  TriggerRequest request;
  bool has_output = false;
  for (const activity::JsonMember &member : root.object) {
    const JsonValue &value = member.value;
    const std::string &key = member.key;
    if (key == "id") {
      if (value.type != JsonType::String || !valid_id(value.string))
        return fail("\"id\": expected 1 to 64 letters, digits, '.', '_' or '-'");
      request.id = value.string;
    } else if (key == "capture_steps" || key == "at_step") {
      const std::optional<uint64_t> count = count_of(value);
      if (!count) return fail("\"" + key + "\": expected a whole number from 1");
      (key == "at_step" ? request.at_step : request.capture_steps) = *count;
    } else if (key == "duration_s") {
      if (value.type != JsonType::Number || !(value.number > 0) || value.number > 86400 * 7)
        return fail("\"duration_s\": expected seconds above 0");
      request.duration_s = value.number;
    } else if (key == "options") {
      if (value.type != JsonType::Array || value.array.size() > 256)
        return fail("\"options\": expected an array of at most 256 strings");
      for (const JsonValue &option : value.array) {
        if (option.type != JsonType::String || option.string.empty() || !utf8(option.string))
          return fail("\"options\": expected an array of strings (UTF-8, no control characters)");
        request.options.push_back(option.string);
      }
    } else if (key == "output") {
      if (value.type != JsonType::String || value.string.empty() || !utf8(value.string))
        return fail("\"output\": expected the report's name (UTF-8, no control characters)");
      request.output = value.string;
      has_output = true;
    } else {
      return fail("unknown key \"" + key +
                  "\": expected id, capture_steps, at_step, duration_s, options, output");
    }
  }
  if (request.id.empty()) return fail("expected an \"id\"");
  if (!has_output) return fail("expected an \"output\"");
  if (request.capture_steps == 0 && request.duration_s == 0)
    return fail("expected \"capture_steps\" or \"duration_s\" (nobody is there to stop it)");
  if (request.at_step != 0 && request.capture_steps == 0)
    return fail("\"at_step\" needs \"capture_steps\"");
  return request;
}

std::vector<std::string> trigger_arguments(const TriggerRequest &request) {
  std::vector<std::string> args;
  if (request.capture_steps)
    args.insert(args.end(), {"--capture-steps", std::to_string(request.capture_steps)});
  if (request.at_step) args.insert(args.end(), {"--at-step", std::to_string(request.at_step)});
  if (request.duration_s > 0)
    args.insert(args.end(), {"--duration", format_seconds(request.duration_s)});
  args.insert(args.end(), request.options.begin(), request.options.end());
  args.insert(args.end(), {"-o", request.output});
  return args;
}

} // namespace prof::control
