#include <prof/python/line_table.hpp>

namespace prof::python {
namespace {

// Entries start with a byte whose top bit is set: bits 3-6 the form, bits
// 0-2 the entry's length in code units minus one. Varints are 6-bit groups,
// least significant first, bit 6 saying another group follows.
class Reader {
public:
  explicit Reader(std::span<const uint8_t> table) : table_(table) {}
  bool done() const { return at_ >= table_.size(); }
  uint8_t byte() { return done() ? 0 : table_[at_++]; }
  uint64_t varint() {
    uint8_t b = byte();
    uint64_t value = b & 63u;
    for (int shift = 6; (b & 64u) != 0 && !done() && shift < 60; shift += 6) {
      b = byte();
      value |= static_cast<uint64_t>(b & 63u) << shift;
    }
    return value;
  }
  int64_t signed_varint() {
    const uint64_t value = varint();
    const auto magnitude = static_cast<int64_t>(value >> 1);
    return (value & 1u) != 0 ? -magnitude : magnitude;
  }
  void skip(int count) {
    for (int i = 0; i < count; ++i)
      byte();
  }

private:
  std::span<const uint8_t> table_;
  std::size_t at_ = 0;
};

} // namespace

int line_of_instruction(std::span<const uint8_t> table, int first_line, int64_t index) {
  if (index < 0) return first_line; // the frame has not started: its first line
  Reader reader(table);
  int64_t line = first_line;
  int64_t start = 0;
  while (!reader.done()) {
    const uint8_t head = reader.byte();
    if ((head & 128u) == 0) return -1; // not an entry's first byte: a table prof misreads
    const int form = (head >> 3) & 15;
    const int length = (head & 7) + 1;
    bool has_line = true;
    if (form == 15) {
      has_line = false;      // no location
    } else if (form == 14) { // long form: line delta, end line, columns
      line += reader.signed_varint();
      reader.varint();
      reader.varint();
      reader.varint();
    } else if (form == 13) { // no column
      line += reader.signed_varint();
    } else if (form >= 10) { // one line form: delta 0-2, two column bytes
      line += form - 10;
      reader.skip(2);
    } else { // short form: same line, one column byte
      reader.skip(1);
    }
    if (index < start + length) return has_line ? static_cast<int>(line) : -1;
    start += length;
  }
  return -1;
}

} // namespace prof::python
