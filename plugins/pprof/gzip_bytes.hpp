// Gzip (RFC 1952) of a byte string with zlib: pprof files are gzipped
// profile.proto messages.
#ifndef PROF_PLUGINS_PPROF_GZIP_BYTES_HPP
#define PROF_PLUGINS_PPROF_GZIP_BYTES_HPP

#include <optional>
#include <string>
#include <string_view>

namespace prof::pprof {

/// `bytes` gzipped; nullopt when zlib fails (out of memory).
std::optional<std::string> gzip_bytes(std::string_view bytes);

} // namespace prof::pprof

#endif
