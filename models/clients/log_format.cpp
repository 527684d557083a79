#include "models/clients/log_format.h"

#include <array>
#include <charconv>
#include <cmath>

namespace models {

namespace {

bool name_char(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

LogFormat::Var var_of(const std::string& name) {
  using V = LogFormat::Var;
  if (name == "time_local") return V::kTimeLocal;
  if (name == "msec") return V::kMsec;
  if (name == "request") return V::kRequest;
  if (name == "request_uri") return V::kRequestUri;
  if (name == "uri") return V::kUri;
  if (name == "status") return V::kStatus;
  if (name == "body_bytes_sent") return V::kBodyBytes;
  if (name == "bytes_sent") return V::kBytesSent;
  if (name == "request_time") return V::kRequestTime;
  return V::kOther;
}

// Whole digits only, below 2^53 (a size up to 8 PiB, a status).
bool parse_count(std::string_view s, std::uint64_t& out) {
  if (s.empty() || s.size() > 15) return false;
  std::uint64_t v = 0;
  for (const char c : s) {
    if (c < '0' || c > '9') return false;
    v = v * 10 + static_cast<std::uint64_t>(c - '0');
  }
  out = v;
  return true;
}

// "1234.567" or "0.004": digits, optionally a point and digits.
bool parse_decimal(std::string_view s, double& out) {
  if (s.empty() || s.size() > 32 || s.front() < '0' || s.front() > '9') return false;
  for (const char c : s)
    if ((c < '0' || c > '9') && c != '.') return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size() && std::isfinite(out);
}

int two_digits(std::string_view s, std::size_t at) {
  const char a = s[at], b = s[at + 1];
  if (a < '0' || a > '9' || b < '0' || b > '9') return -1;
  return (a - '0') * 10 + (b - '0');
}

// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's
// days_from_civil).
std::int64_t days_from_civil(std::int64_t y, unsigned m, unsigned d) {
  y -= m <= 2;
  const std::int64_t era = (y >= 0 ? y : y - 399) / 400;
  const auto yoe = static_cast<unsigned>(y - era * 400);
  const unsigned doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
  const unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + static_cast<std::int64_t>(doe) - 719468;
}

// The path of "GET /a/b?x HTTP/1.1" (or of a URI alone): from its first '/'
// (after "scheme://host" in an absolute URI) to '?' or the end.
bool uri_path(std::string_view uri, std::string_view& path) {
  if (const std::size_t scheme = uri.find("://"); scheme != std::string_view::npos && scheme < 8) {
    const std::size_t slash = uri.find('/', scheme + 3);
    if (slash == std::string_view::npos) return false;
    uri.remove_prefix(slash);
  }
  if (uri.empty() || uri.front() != '/') return false;
  path = uri.substr(0, uri.find('?'));
  return true;
}

}  // namespace

std::optional<double> parse_time_local(std::string_view s) {
  // dd/Mon/yyyy:HH:MM:SS +hhmm
  static constexpr std::array<const char*, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  if (s.size() != 26 || s[2] != '/' || s[6] != '/' || s[11] != ':' || s[14] != ':' || s[17] != ':' || s[20] != ' ' ||
      (s[21] != '+' && s[21] != '-'))
    return std::nullopt;
  unsigned month = 0;
  for (unsigned m = 0; m < 12; ++m)
    if (s.substr(3, 3) == kMonths[m]) month = m + 1;
  const int day = two_digits(s, 0), century = two_digits(s, 7), year2 = two_digits(s, 9);
  const int hh = two_digits(s, 12), mm = two_digits(s, 15), ss = two_digits(s, 18);
  const int zh = two_digits(s, 22), zm = two_digits(s, 24);
  if (month == 0 || day < 1 || day > 31 || century < 0 || year2 < 0 || hh < 0 || hh > 23 || mm < 0 || mm > 59 ||
      ss < 0 || ss > 60 || zh < 0 || zh > 23 || zm < 0 || zm > 59)
    return std::nullopt;
  const std::int64_t days = days_from_civil(century * 100 + year2, month, static_cast<unsigned>(day));
  const std::int64_t zone = (s[21] == '-' ? -1 : 1) * (zh * 3600 + zm * 60);
  return static_cast<double>(days * 86400 + hh * 3600 + mm * 60 + ss - zone);
}

std::optional<LogFormat> LogFormat::compile(std::string_view format, std::string& error) {
  LogFormat f;
  std::string literal;
  bool time = false, path = false, size = false;
  for (std::size_t i = 0; i < format.size();) {
    if (format[i] != '$') {
      literal += format[i++];
      continue;
    }
    const bool braced = i + 1 < format.size() && format[i + 1] == '{';
    std::size_t j = i + (braced ? 2 : 1);
    const std::size_t start = j;
    while (j < format.size() && name_char(format[j])) ++j;
    if (j == start) {
      error = "a '$' at column " + std::to_string(i + 1) + " names no variable";
      return std::nullopt;
    }
    const std::string name(format.substr(start, j - start));
    if (braced) {
      if (j >= format.size() || format[j] != '}') {
        error = "\"${" + name + "\" has no closing '}'";
        return std::nullopt;
      }
      ++j;
    }
    if (!literal.empty()) f.tokens_.push_back(Token{true, literal});
    else if (!f.tokens_.empty()) {
      error = "$" + name + " follows $" + f.tokens_.back().text +
              " with nothing between them: where one ends and the other begins cannot be told";
      return std::nullopt;
    }
    literal.clear();
    const Var v = var_of(name);
    time = time || v == Var::kTimeLocal || v == Var::kMsec;
    path = path || v == Var::kRequest || v == Var::kRequestUri || v == Var::kUri;
    size = size || v == Var::kBodyBytes || v == Var::kBytesSent;
    if (v == Var::kMsec || (v == Var::kTimeLocal && f.time_ != Var::kMsec)) f.time_ = v;
    f.has_request_time_ = f.has_request_time_ || v == Var::kRequestTime;
    f.tokens_.push_back(Token{false, name, v});
    i = j;
  }
  if (!literal.empty()) f.tokens_.push_back(Token{true, literal});
  if (!time) error = "has no $time_local nor $msec: the replay needs each request's time";
  else if (!path) error = "has no $request, $request_uri nor $uri: the replay needs each request's path";
  else if (!size) error = "has no $body_bytes_sent nor $bytes_sent: the replay needs each response's size";
  if (!error.empty()) return std::nullopt;
  return f;
}

bool LogFormat::field(Var var, std::string_view value, LogFields& out, std::string& why) const {
  std::uint64_t n = 0;
  switch (var) {
    case Var::kOther:
      return true;
    case Var::kTimeLocal:
      if (time_ != Var::kTimeLocal) return true;  // $msec is the finer one
      if (const std::optional<double> t = parse_time_local(value)) {
        out.time_s = *t;
        return true;
      }
      why = "$time_local is not like 10/Oct/2000:13:55:36 -0700";
      return false;
    case Var::kMsec:
      if (parse_decimal(value, out.time_s)) return true;
      why = "$msec is not seconds like 1700000000.123";
      return false;
    case Var::kRequest: {
      // "METHOD URI[ PROTOCOL]"
      const std::size_t sp = value.find(' ');
      const std::string_view uri = sp == std::string_view::npos ? std::string_view() : value.substr(sp + 1);
      if (sp != std::string_view::npos && uri_path(uri.substr(0, uri.find(' ')), out.path)) return true;
      why = "$request is not like \"GET /path HTTP/1.1\"";
      return false;
    }
    case Var::kRequestUri:
    case Var::kUri:
      if (!out.path.empty()) return true;  // $request gave it
      if (uri_path(value, out.path)) return true;
      why = "the URI does not begin with '/'";
      return false;
    case Var::kStatus:
      if (parse_count(value, n) && value.size() == 3 && n >= 100) {
        out.status = static_cast<int>(n);
        return true;
      }
      why = "$status is not a 3-digit number from 100";
      return false;
    case Var::kBodyBytes:
    case Var::kBytesSent:
      if (!parse_count(value, n)) {
        why = "the size is not a whole number of bytes";
        return false;
      }
      if (var == Var::kBodyBytes || out.bytes == 0) out.bytes = n;
      return true;
    case Var::kRequestTime:
      if (value == "-") return true;
      if (parse_decimal(value, out.request_time_s)) return true;
      why = "$request_time is not seconds like 0.123";
      return false;
  }
  return true;
}

bool LogFormat::parse(std::string_view line, LogFields& out, std::string& why) const {
  out = LogFields{};
  std::size_t at = 0;
  bool body_seen = false;
  for (std::size_t i = 0; i < tokens_.size(); ++i) {
    const Token& t = tokens_[i];
    if (t.literal) {
      if (line.substr(at, t.text.size()) != t.text) {
        why = "expected '" + t.text + "' at column " + std::to_string(at + 1);
        return false;
      }
      at += t.text.size();
      continue;
    }
    std::size_t end = line.size();
    if (i + 1 < tokens_.size()) {
      const std::string& next = tokens_[i + 1].text;
      // The format's closing literal is the line's end; any other, the first after this value.
      end = i + 2 == tokens_.size() ? (line.size() >= at + next.size() && line.substr(line.size() - next.size()) == next
                                           ? line.size() - next.size()
                                           : std::string_view::npos)
                                    : line.find(next, at);
      if (end == std::string_view::npos) {
        why = i + 2 == tokens_.size() ? "the line does not end with '" + next + "' (after $" + t.text + ")"
                                      : "no '" + next + "' after $" + t.text;
        return false;
      }
    }
    const std::string_view value = line.substr(at, end - at);
    if (t.var == Var::kBytesSent && body_seen) {
      // $body_bytes_sent wins over $bytes_sent, wherever each is.
    } else if (!field(t.var, value, out, why)) {
      return false;
    }
    body_seen = body_seen || t.var == Var::kBodyBytes;
    at = end;
  }
  if (at != line.size()) {
    why = "text after the format's end at column " + std::to_string(at + 1);
    return false;
  }
  return true;
}

}  // namespace models
