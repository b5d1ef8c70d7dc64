#include "core/report/crc32c.hpp"

#include <array>
#include <bit>
#include <cstring>

#if defined(__x86_64__)
#include <cpuid.h>
#include <nmmintrin.h>
#endif

namespace prof::report {
namespace {

static_assert(std::endian::native == std::endian::little,
              "the slicing tables assume little-endian loads");

using SliceTables = std::array<std::array<uint32_t, 256>, 8>;

constexpr SliceTables make_slice_tables() {
  constexpr uint32_t kReflectedPolynomial = 0x82F63B78u;
  SliceTables t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int bit = 0; bit < 8; ++bit)
      c = (c & 1u) ? (c >> 1) ^ kReflectedPolynomial : c >> 1;
    t[0][i] = c;
  }
  for (size_t k = 1; k < 8; ++k)
    for (size_t i = 0; i < 256; ++i)
      t[k][i] = (t[k - 1][i] >> 8) ^ t[0][t[k - 1][i] & 0xffu];
  return t;
}

constexpr SliceTables kTables = make_slice_tables();

uint32_t portable_update(uint32_t state, const uint8_t *p, size_t n) {
  while (n >= 8) {
    uint32_t lo;
    uint32_t hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + 4, 4);
    lo ^= state;
    state = kTables[7][lo & 0xffu] ^ kTables[6][(lo >> 8) & 0xffu] ^
            kTables[5][(lo >> 16) & 0xffu] ^ kTables[4][lo >> 24] ^ kTables[3][hi & 0xffu] ^
            kTables[2][(hi >> 8) & 0xffu] ^ kTables[1][(hi >> 16) & 0xffu] ^ kTables[0][hi >> 24];
    p += 8;
    n -= 8;
  }
  while (n-- > 0)
    state = (state >> 8) ^ kTables[0][(state ^ *p++) & 0xffu];
  return state;
}

#if defined(__x86_64__)
__attribute__((target("sse4.2"))) uint32_t hardware_update(uint32_t state, const uint8_t *p,
                                                           size_t n) {
  uint64_t wide = state;
  while (n >= 8) {
    uint64_t word;
    std::memcpy(&word, p, 8);
    wide = _mm_crc32_u64(wide, word);
    p += 8;
    n -= 8;
  }
  auto narrow = static_cast<uint32_t>(wide);
  while (n-- > 0)
    narrow = _mm_crc32_u8(narrow, *p++);
  return narrow;
}

// One cpuid when first used: __builtin_cpu_supports would link libgcc's
// start-up probe of every CPU feature (a dozen cpuid, each a VM exit) into
// every program that can write a report.
bool detect_hardware() {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  return __get_cpuid(1, &eax, &ebx, &ecx, &edx) != 0 && (ecx & bit_SSE4_2) != 0;
}
#else
uint32_t hardware_update(uint32_t state, const uint8_t *p, size_t n) {
  return portable_update(state, p, n);
}
bool detect_hardware() { return false; }
#endif

using UpdateFn = uint32_t (*)(uint32_t, const uint8_t *, size_t);

UpdateFn chosen_update() {
  static const UpdateFn fn = detect_hardware() ? hardware_update : portable_update;
  return fn;
}

} // namespace

uint32_t crc32c_extend(uint32_t crc, const void *data, size_t size) {
  return ~chosen_update()(~crc, static_cast<const uint8_t *>(data), size);
}

uint32_t crc32c_extend_portable(uint32_t crc, const void *data, size_t size) {
  return ~portable_update(~crc, static_cast<const uint8_t *>(data), size);
}

bool crc32c_uses_hardware() { return chosen_update() == hardware_update; }

} // namespace prof::report
