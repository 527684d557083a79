#include "testbed/replay/response_head.h"

#include <optional>

namespace testbed::replay {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }

bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower(a[i]) != lower(b[i])) return false;
  return true;
}

// RFC 9110 5.6.2 tchar.
bool is_tchar(char c) {
  return is_digit(c) || (lower(c) >= 'a' && lower(c) <= 'z') || std::string_view("!#$%&'*+-.^_`|~").find(c) != std::string_view::npos;
}

std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Whether a comma-separated list (Connection) holds `token`, any case.
bool lists(std::string_view value, std::string_view token) {
  while (!value.empty()) {
    const std::size_t comma = value.find(',');
    if (iequals(trim_ows(value.substr(0, comma)), token)) return true;
    if (comma == std::string_view::npos) break;
    value.remove_prefix(comma + 1);
  }
  return false;
}

// 1*DIGIT that fits 64 bits.
std::optional<std::uint64_t> length_of(std::string_view v) {
  if (v.empty()) return std::nullopt;
  std::uint64_t n = 0;
  for (char c : v) {
    if (!is_digit(c)) return std::nullopt;
    const auto d = static_cast<std::uint64_t>(c - '0');
    if (n > (UINT64_MAX - d) / 10) return std::nullopt;
    n = n * 10 + d;
  }
  return n;
}

class Reader {
 public:
  HeadParse parse(std::string_view in) {
    const std::size_t end = in.find("\r\n\r\n");
    if (end == std::string_view::npos || end + 4 > kMaxHeadBytes) {
      if (in.size() < kMaxHeadBytes) return out_;
      fail(lines_in(in.substr(0, kMaxHeadBytes)),
           "no end of the head (CRLF CRLF) within " + std::to_string(kMaxHeadBytes) + " bytes");
      return out_;
    }
    std::string_view head = in.substr(0, end + 2);  // every line with its CRLF
    std::size_t eol = head.find("\r\n");
    if (!status_line(head.substr(0, eol))) return out_;
    int line = 2;
    for (head.remove_prefix(eol + 2); !head.empty(); head.remove_prefix(eol + 2), ++line) {
      eol = head.find("\r\n");
      if (!field(line, head.substr(0, eol))) return out_;
    }
    if (!length_ && !no_body_) {
      fail(line, "the head ends with no Content-Length (a body of another kind is not read)");
      return out_;
    }
    out_.state = HeadParse::State::kComplete;
    out_.head.body_bytes = no_body_ ? 0 : *length_;
    out_.head.close = close_ || (http10_ && !keep_alive_);
    out_.head.head_bytes = end + 4;
    return out_;
  }

 private:
  static int lines_in(std::string_view s) {
    int n = 1;
    for (std::size_t at = s.find("\r\n"); at != std::string_view::npos; at = s.find("\r\n", at + 2)) ++n;
    return n;
  }

  bool fail(int line, const std::string& why) {
    out_.state = HeadParse::State::kMalformed;
    out_.error = "line " + std::to_string(line) + ": " + why;
    return false;
  }

  // "HTTP/1.D NNN" then the end or a space and a reason.
  bool status_line(std::string_view s) {
    const bool form = s.size() >= 12 && s.substr(0, 7) == "HTTP/1." && is_digit(s[7]) && s[8] == ' ' &&
                      is_digit(s[9]) && is_digit(s[10]) && is_digit(s[11]) && (s.size() == 12 || s[12] == ' ');
    if (!form) return fail(1, "not a status line (HTTP/1.x NNN reason)");
    http10_ = s[7] == '0';
    out_.head.status = (s[9] - '0') * 100 + (s[10] - '0') * 10 + (s[11] - '0');
    if (out_.head.status < 100) return fail(1, "status " + std::string(s.substr(9, 3)) + " out of range");
    if (out_.head.status < 200) return fail(1, "an interim 1xx response (none is expected)");
    no_body_ = out_.head.status == 204 || out_.head.status == 304;
    return true;
  }

  bool field(int line, std::string_view s) {
    const std::size_t colon = s.find(':');
    if (colon == std::string_view::npos) return fail(line, "a header field without ':'");
    const std::string_view name = s.substr(0, colon);
    if (name.empty()) return fail(line, "a header field with no name");
    for (char c : name)
      if (!is_tchar(c)) return fail(line, "a header field name that is not a token");
    const std::string_view value = trim_ows(s.substr(colon + 1));
    if (iequals(name, "content-length")) {
      const auto n = length_of(value);
      if (!n) return fail(line, "Content-Length is not a number of bytes");
      if (length_ && *length_ != *n) return fail(line, "a second Content-Length, with another value");
      length_ = n;
    } else if (iequals(name, "transfer-encoding")) {
      return fail(line, "Transfer-Encoding (a chunked body is not read)");
    } else if (iequals(name, "connection")) {
      close_ = close_ || lists(value, "close");
      keep_alive_ = keep_alive_ || lists(value, "keep-alive");
    }
    return true;
  }

  HeadParse out_;
  std::optional<std::uint64_t> length_;
  bool no_body_ = false, http10_ = false, close_ = false, keep_alive_ = false;
};

}  // namespace

HeadParse parse_response_head(std::string_view in) { return Reader().parse(in); }

}  // namespace testbed::replay
