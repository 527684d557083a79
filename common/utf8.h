// Where a UTF-8 character starts, for cutting text without splitting one:
// a continuation byte is 10xxxxxx, and a character has at most three of
// them, so a run of stray continuation bytes is crossed byte by byte.
#pragma once
#include <cstddef>
#include <string_view>

namespace common {

inline bool utf8_continuation(std::string_view s, std::size_t at) {
  return at < s.size() && (static_cast<unsigned char>(s[at]) & 0xC0) == 0x80;
}
// `at` moved back (down) to the start of the character it falls in.
inline std::size_t utf8_start_at_or_before(std::string_view s, std::size_t at) {
  for (int k = 0; k < 3 && at > 0 && utf8_continuation(s, at); ++k) --at;
  return at;
}
// `at` moved on (up) to the next character's start.
inline std::size_t utf8_start_at_or_after(std::string_view s, std::size_t at) {
  for (int k = 0; k < 3 && utf8_continuation(s, at); ++k) ++at;
  return at;
}

}  // namespace common
