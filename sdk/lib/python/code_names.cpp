#include <prof/python/code_names.hpp>

#include <prof/python/checked_read.hpp>
#include <prof/python/line_table.hpp>

#include <cstring>

namespace prof::python {
namespace {

constexpr std::size_t kMaxNameBytes = 1024;
constexpr std::size_t kMaxLineTable = 1 << 20;

template <typename T> T field(const std::vector<uint8_t> &bytes, int offset) {
  T value{};
  std::memcpy(&value, bytes.data() + offset, sizeof value);
  return value;
}

void append_utf8(std::string &out, uint32_t c) {
  if (c < 0x80) {
    out += static_cast<char>(c);
  } else if (c < 0x800) {
    out += static_cast<char>(0xC0 | c >> 6);
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else if (c < 0x10000) {
    out += static_cast<char>(0xE0 | c >> 12);
    out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | c >> 18);
    out += static_cast<char>(0x80 | (c >> 12 & 0x3F));
    out += static_cast<char>(0x80 | (c >> 6 & 0x3F));
    out += static_cast<char>(0x80 | (c & 0x3F));
  }
}

} // namespace

std::optional<std::string> read_str(const InterpreterLayout &layout, uintptr_t object) {
  std::vector<uint8_t> head(layout.compact_size);
  if (object == 0 || !read_memory(object, head.data(), head.size())) return std::nullopt;
  const auto length = field<int64_t>(head, kUnicodeLength);
  const auto state = field<uint32_t>(head, kUnicodeState);
  const unsigned kind = state >> 2 & 7;
  const bool compact = (state >> 5 & 1) != 0;
  const bool ascii = (state >> 6 & 1) != 0;
  if (!compact || length < 0 || (kind != 1 && kind != 2 && kind != 4)) return std::nullopt;
  const std::size_t shown = std::min<std::size_t>(static_cast<std::size_t>(length), kMaxNameBytes);
  std::vector<uint8_t> data(shown * kind);
  const uintptr_t text = object + (ascii ? layout.ascii_size : layout.compact_size);
  if (!read_memory(text, data.data(), data.size())) return std::nullopt;
  std::string out;
  out.reserve(shown);
  for (std::size_t i = 0; i < shown; ++i) {
    uint32_t c = 0;
    std::memcpy(&c, data.data() + i * kind, kind);
    append_utf8(out, c);
  }
  return out;
}

std::string shown_file(const std::string &path) {
  for (const char *marker : {"/site-packages/", "/dist-packages/"}) {
    const auto at = path.rfind(marker);
    if (at != std::string::npos) return path.substr(at + std::strlen(marker));
  }
  return path;
}

CodeNames::Code CodeNames::read_code(const PythonFrameRef &frame) const {
  const InterpreterLayout &layout = *runtime_.layout;
  Code code;
  std::vector<uint8_t> object(layout.code_units);
  if (!read_memory(frame.code, object.data(), object.size())) return code;
  // The object must still be the one the sample saw.
  if (field<uintptr_t>(object, kObjectType) != runtime_.code_type ||
      field<uintptr_t>(object, layout.code_qualname) != frame.qualname ||
      field<int32_t>(object, layout.code_first_line) != frame.first_line)
    return code;
  auto qualname = read_str(layout, frame.qualname);
  auto file = read_str(layout, field<uintptr_t>(object, layout.code_filename));
  if (!qualname || !file) return code;
  const auto table = field<uintptr_t>(object, layout.code_line_table);
  int64_t table_size = 0;
  if (table != 0 && read_memory(table + kVarSize, &table_size, sizeof table_size) &&
      table_size > 0 && static_cast<std::size_t>(table_size) <= kMaxLineTable) {
    code.line_table.resize(static_cast<std::size_t>(table_size));
    if (!read_memory(table + kBytesData, code.line_table.data(), code.line_table.size()))
      code.line_table.clear();
  }
  code.readable = true;
  code.qualname = std::move(*qualname);
  code.file = shown_file(*file);
  return code;
}

std::string CodeNames::frame_name(const PythonFrameRef &frame) {
  const Key key{frame.code, frame.qualname, frame.first_line};
  auto found = codes_.find(key);
  if (found == codes_.end()) found = codes_.emplace(key, read_code(frame)).first;
  const Code &code = found->second;
  if (!code.readable) return "[python frame]";
  const int line = line_of_instruction(code.line_table, frame.first_line, frame.instruction);
  return code.qualname + " (" + code.file + ":" +
         std::to_string(line >= 0 ? line : frame.first_line) + ")";
}

} // namespace prof::python
