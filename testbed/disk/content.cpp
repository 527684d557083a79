#include "content.h"

namespace testbed::disk {

namespace {
// splitmix64's finaliser (Steele, Lea, Flood 2014): a cheap, well-mixed word.
std::uint64_t mix(std::uint64_t z) {
  z += 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t word(std::uint64_t key, std::uint64_t index) { return mix(key ^ (index * 0x9e3779b97f4a7c15ULL)); }

char byte_of(std::uint64_t w, std::uint64_t i) { return static_cast<char>((w >> (8 * (i & 7))) & 0xff); }
}  // namespace

std::uint64_t path_key(std::string_view path) {
  std::uint64_t h = 0xcbf29ce484222325ULL;  // FNV-1a, 64 bits
  for (const char c : path) {
    h ^= static_cast<unsigned char>(c);
    h *= 0x100000001b3ULL;
  }
  return h;
}

void fill_content(std::uint64_t key, std::uint64_t offset, char* buf, std::size_t length) {
  std::size_t i = 0;
  while (i < length) {
    const std::uint64_t at = offset + i;
    const std::uint64_t w = word(key, at / 8);
    for (std::uint64_t b = at % 8; b < 8 && i < length; ++b) buf[i++] = byte_of(w, b);
  }
}

std::int64_t first_mismatch(std::uint64_t key, std::uint64_t offset, const char* buf, std::size_t length) {
  std::size_t i = 0;
  while (i < length) {
    const std::uint64_t at = offset + i;
    const std::uint64_t w = word(key, at / 8);
    for (std::uint64_t b = at % 8; b < 8 && i < length; ++b, ++i)
      if (buf[i] != byte_of(w, b)) return static_cast<std::int64_t>(offset + i);
  }
  return -1;
}

}  // namespace testbed::disk
