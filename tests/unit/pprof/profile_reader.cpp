#include "profile_reader.hpp"

#include <zlib.h>

#include <fstream>
#include <sstream>
#include <string_view>

namespace prof::pprof::testing {
namespace {

// One field of a message: its number and either a varint or bytes.
struct Field {
  uint32_t number = 0;
  uint64_t varint = 0;
  std::string_view bytes;
  bool is_bytes = false;
};

bool read_varint(std::string_view &in, uint64_t &value) {
  value = 0;
  for (int shift = 0; shift < 64 && !in.empty(); shift += 7) {
    const auto byte = static_cast<uint8_t>(in.front());
    in.remove_prefix(1);
    value |= static_cast<uint64_t>(byte & 0x7f) << shift;
    if ((byte & 0x80) == 0) return true;
  }
  return false;
}

std::optional<std::vector<Field>> fields(std::string_view in) {
  std::vector<Field> out;
  while (!in.empty()) {
    uint64_t tag = 0;
    if (!read_varint(in, tag)) return std::nullopt;
    Field f{static_cast<uint32_t>(tag >> 3)};
    if ((tag & 7) == 0) {
      if (!read_varint(in, f.varint)) return std::nullopt;
    } else if ((tag & 7) == 2) {
      uint64_t length = 0;
      if (!read_varint(in, length) || length > in.size()) return std::nullopt;
      f.bytes = in.substr(0, length);
      f.is_bytes = true;
      in.remove_prefix(length);
    } else {
      return std::nullopt; // the exporter writes no other wire type
    }
    out.push_back(f);
  }
  return out;
}

// A repeated varint field: packed bytes or one value.
std::vector<uint64_t> varints(const Field &f) {
  if (!f.is_bytes) return {f.varint};
  std::vector<uint64_t> out;
  std::string_view in = f.bytes;
  for (uint64_t v = 0; !in.empty() && read_varint(in, v);)
    out.push_back(v);
  return out;
}

std::map<uint32_t, uint64_t> scalars(std::string_view message) {
  std::map<uint32_t, uint64_t> out;
  if (const auto parsed = fields(message))
    for (const Field &f : *parsed)
      if (!f.is_bytes) out[f.number] = f.varint;
  return out;
}

} // namespace

std::optional<std::string> gunzip_file(const std::string &path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream buffer;
  buffer << file.rdbuf();
  const std::string zipped = buffer.str();
  z_stream stream{};
  if (inflateInit2(&stream, 15 + 16) != Z_OK) return std::nullopt;
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(zipped.data()));
  stream.avail_in = static_cast<uInt>(zipped.size());
  std::string out;
  int status = Z_OK;
  while (status == Z_OK) {
    char chunk[65536];
    stream.next_out = reinterpret_cast<Bytef *>(chunk);
    stream.avail_out = sizeof chunk;
    status = inflate(&stream, Z_NO_FLUSH);
    out.append(chunk, sizeof chunk - stream.avail_out);
  }
  inflateEnd(&stream);
  if (status != Z_STREAM_END) return std::nullopt;
  return out;
}

std::optional<ReadProfile> decode_profile(const std::string &bytes) {
  const auto top = fields(bytes);
  if (!top) return std::nullopt;
  ReadProfile p;
  std::vector<std::map<uint32_t, uint64_t>> types;
  std::map<uint64_t, std::map<uint32_t, uint64_t>> functions; // by id
  std::map<uint64_t, std::pair<uint64_t, int64_t>> locations; // id: (function id, line)
  std::vector<std::string_view> samples;
  std::map<uint32_t, uint64_t> period_type;
  uint64_t default_type = 0;
  std::vector<uint64_t> comments;
  for (const Field &f : *top) {
    if (f.number == 1) types.push_back(scalars(f.bytes));
    if (f.number == 2) samples.push_back(f.bytes);
    if (f.number == 4) {
      const auto location = scalars(f.bytes);
      for (const Field &l : fields(f.bytes).value_or(std::vector<Field>{}))
        if (l.number == 4) {
          const auto line = scalars(l.bytes);
          locations[location.count(1) ? location.at(1) : 0] = {
              line.count(1) ? line.at(1) : 0, line.count(2) ? static_cast<int64_t>(line.at(2)) : 0};
        }
    }
    if (f.number == 5) {
      const auto function = scalars(f.bytes);
      functions[function.count(1) ? function.at(1) : 0] = function;
    }
    if (f.number == 6) p.strings.emplace_back(f.bytes);
    if (f.number == 9) p.time_nanos = static_cast<int64_t>(f.varint);
    if (f.number == 10) p.duration_nanos = static_cast<int64_t>(f.varint);
    if (f.number == 11) period_type = scalars(f.bytes);
    if (f.number == 12) p.period = static_cast<int64_t>(f.varint);
    if (f.number == 13) comments = varints(f);
    if (f.number == 14) default_type = f.varint;
  }
  const auto text = [&p](uint64_t index) {
    return index < p.strings.size() ? p.strings[index] : std::string("<bad index>");
  };
  const auto at = [](const std::map<uint32_t, uint64_t> &m, uint32_t field) {
    return m.count(field) ? m.at(field) : 0;
  };
  for (const auto &t : types)
    p.sample_types.emplace_back(text(at(t, 1)), text(at(t, 2)));
  p.period_type = {text(at(period_type, 1)), text(at(period_type, 2))};
  p.default_sample_type = text(default_type);
  for (uint64_t c : comments)
    p.comments.push_back(text(c));
  for (const auto &[id, location] : locations) {
    const auto &function = functions[location.first];
    p.functions.push_back({text(at(function, 2)), text(at(function, 4)), location.second});
  }
  for (std::string_view message : samples) {
    ReadSample s;
    for (const Field &f : fields(message).value_or(std::vector<Field>{})) {
      if (f.number == 1)
        for (uint64_t id : varints(f))
          s.frames.push_back(text(functions[locations[id].first][2]));
      if (f.number == 2)
        for (uint64_t v : varints(f))
          s.values.push_back(static_cast<int64_t>(v));
      if (f.number == 3) {
        const auto label = scalars(f.bytes);
        s.labels[text(at(label, 1))] =
            label.count(2) ? text(label.at(2)) : std::to_string(static_cast<int64_t>(at(label, 3)));
      }
    }
    p.samples.push_back(std::move(s));
  }
  return p;
}

} // namespace prof::pprof::testing
