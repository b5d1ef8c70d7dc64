// What `prof import` says of a trace it cannot read: what it expected and
// the byte offset where it did not find it.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

namespace prof::kineto {

/// A malformed, cut or unreadable trace. what() is "<expected> at offset N";
/// the command puts "prof: import FILE: " in front.
class TraceReadError : public std::runtime_error {
public:
  TraceReadError(const std::string &expected, std::size_t at)
      : std::runtime_error(expected + " at offset " + std::to_string(at)), offset(at) {}
  std::size_t offset;
};

} // namespace prof::kineto
