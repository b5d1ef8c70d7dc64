#include "tools/prof/reports/trace_text.hpp"

#include <algorithm>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <system_error>

#ifdef PROF_HAVE_ZLIB
#include <zlib.h>
#endif

namespace prof::tool {
namespace {

bool is_gzip(const std::string &bytes) {
  return bytes.size() >= 2 && static_cast<unsigned char>(bytes[0]) == 0x1f &&
         static_cast<unsigned char>(bytes[1]) == 0x8b;
}

#ifdef PROF_HAVE_ZLIB
// Every member of the gzip stream, one after another (as gunzip does).
std::string gunzip(const std::string &compressed) {
  std::string out;
  z_stream stream{};
  if (inflateInit2(&stream, 16 + MAX_WBITS) != Z_OK)
    throw TraceTextError("expected to start zlib's decompressor", 0);
  stream.next_in = reinterpret_cast<Bytef *>(const_cast<char *>(compressed.data()));
  stream.avail_in = static_cast<uInt>(compressed.size()); // files over 4 GiB: see the loop
  size_t fed = compressed.size();
  constexpr uInt kChunk = 1u << 20;
  char buffer[kChunk / 16];
  const auto consumed = [&] { return static_cast<size_t>(stream.total_in); };
  for (;;) {
    if (stream.avail_in == 0 && fed < compressed.size()) {
      const size_t more = std::min<size_t>(compressed.size() - fed, 1u << 30);
      stream.avail_in = static_cast<uInt>(more);
      fed += more;
    }
    stream.next_out = reinterpret_cast<Bytef *>(buffer);
    stream.avail_out = sizeof buffer;
    const int status = inflate(&stream, Z_NO_FLUSH);
    out.append(buffer, sizeof buffer - stream.avail_out);
    if (status == Z_STREAM_END) {
      // Another member may follow; trailing zero bytes (padding) end it.
      const size_t at = compressed.size() - stream.avail_in;
      if (stream.avail_in == 0 || compressed.find_first_not_of('\0', at) == std::string::npos)
        break;
      if (inflateReset(&stream) != Z_OK) break;
      continue;
    }
    if (status == Z_OK) continue;
    if (status == Z_BUF_ERROR && stream.avail_in == 0) {
      inflateEnd(&stream);
      throw TraceTextError("expected more gzip data (the file is cut)", compressed.size());
    }
    const std::string why = stream.msg ? stream.msg : "damaged data";
    const size_t at = consumed();
    inflateEnd(&stream);
    throw TraceTextError("expected gzip data (" + why + ")", at);
  }
  inflateEnd(&stream);
  return out;
}
#endif

} // namespace

bool gzip_traces_supported() {
#ifdef PROF_HAVE_ZLIB
  return true;
#else
  return false;
#endif
}

std::string read_trace_text(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw std::system_error(errno, std::generic_category(), "cannot open it");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (in.bad()) throw std::system_error(errno, std::generic_category(), "cannot read it");
  if (!is_gzip(bytes)) return bytes;
#ifdef PROF_HAVE_ZLIB
  return gunzip(bytes);
#else
  throw TraceTextError("expected a trace: this prof was built without zlib (zlib1g-dev) and "
                       "cannot read a gzip-compressed trace; gunzip it first",
                       0);
#endif
}

} // namespace prof::tool
