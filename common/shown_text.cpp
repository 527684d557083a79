#include "common/shown_text.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>

#include "common/utf8.h"

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

namespace {

constexpr std::size_t kLongest = 200, kHead = 80, kTail = 40;
constexpr std::size_t kMostMessage = 4096, kMessageHead = 2048, kMessageTail = 1024;

// The first `head` and the last `tail` bytes of `text`, with `middle` between.
template <typename Middle>
std::string head_and_tail(std::string_view text, std::size_t head, std::size_t tail, Middle middle) {
  const std::size_t h = utf8_start_at_or_before(text, head), t = utf8_start_at_or_after(text, text.size() - tail);
  return std::string(text.substr(0, h)) + middle(t - h) + std::string(text.substr(t));
}

}  // namespace

std::string cut_long(std::string_view text) {
  if (text.size() <= kLongest) return std::string(text);
  return head_and_tail(text, kHead, kTail, [&](std::size_t) { return fmt::format("...({} bytes)...", text.size()); });
}

std::string cut_long_message(std::string_view message) {
  std::string out;
  for (std::size_t at = 0; at < message.size();) {
    const std::size_t end = std::min(message.find_first_of(" \n\t", at), message.size());
    out += end - at > kLongest ? cut_long(message.substr(at, end - at)) : std::string(message.substr(at, end - at));
    if (end < message.size()) out += message[end];
    at = end + 1;
  }
  if (out.size() <= kMostMessage) return out;
  return head_and_tail(out, kMessageHead, kMessageTail,
                       [](std::size_t n) { return fmt::format("...({} bytes left out)...", n); });
}

}  // namespace common
