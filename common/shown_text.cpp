#include "common/shown_text.h"

#include <fmt/format.h>

#include <cstdint>

namespace common {

namespace {

// The length of the valid UTF-8 sequence at `at` and its code point, or 0.
std::size_t utf8_sequence(std::string_view s, std::size_t at, std::uint32_t& cp) {
  const auto c = static_cast<unsigned char>(s[at]);
  const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xe ? 3 : (c >> 3) == 0x1e ? 4 : 0;
  if (n == 0 || at + n > s.size()) return 0;
  cp = n == 1 ? c : c & (0x7fu >> n);
  for (std::size_t k = 1; k < n; ++k) {
    const auto cc = static_cast<unsigned char>(s[at + k]);
    if ((cc >> 6) != 0x2) return 0;
    cp = (cp << 6) | (cc & 0x3fu);
  }
  constexpr std::uint32_t kLeast[] = {0, 0, 0x80, 0x800, 0x10000};  // shorter forms are overlong
  if (cp < kLeast[n] || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return 0;
  return n;
}

// A code point that controls or reorders what a terminal shows, or shows nothing.
bool hidden_control(std::uint32_t cp) {
  return (cp >= 0x80 && cp <= 0x9f) || (cp >= 0x200b && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202e) ||
         (cp >= 0x2066 && cp <= 0x2069) || cp == 0xfeff;
}

std::string control_escape(unsigned char c) {
  switch (c) {
    case '\0': return "\\0";
    case '\t': return "\\t";
    case '\n': return "\\n";
    case '\r': return "\\r";
    default: return fmt::format("\\x{:02x}", c);
  }
}

}  // namespace

std::string shown_text(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const auto c = static_cast<unsigned char>(text[i]);
    std::uint32_t cp = 0;
    const std::size_t n = utf8_sequence(text, i, cp);
    if (n == 0) {
      out += fmt::format("\\x{:02x}", c);
      ++i;
    } else if (c < 0x20 || c == 0x7f) {
      out += control_escape(c);
      ++i;
    } else if (hidden_control(cp)) {
      out += fmt::format("\\u{{{:04x}}}", cp);
      i += n;
    } else {
      out.append(text, i, n);
      i += n;
    }
  }
  return out;
}

namespace {

// `text` cut at every `separator`, each piece shown by `show`, the separators kept.
template <typename Show>
std::string shown_pieces(std::string_view text, char separator, Show show) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t at = 0;;) {
    const std::size_t end = text.find(separator, at);
    out += show(text.substr(at, end == std::string_view::npos ? std::string_view::npos : end - at));
    if (end == std::string_view::npos) return out;
    out += separator;
    at = end + 1;
  }
}

}  // namespace

std::string shown_lines(std::string_view text) {
  return shown_pieces(text, '\n', [](std::string_view line) { return shown_text(line); });
}

std::string shown_prose(std::string_view text) { return shown_pieces(text, '\t', shown_lines); }

}  // namespace common
