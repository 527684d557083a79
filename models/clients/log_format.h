// An access log line as NGINX's log_format writes it (ngx_http_log_module.c:
// ngx_http_log_compile_format), read back. A format is literal text and
// variables, `$name` or `${name}` (names of letters, digits and '_'). A
// line matches when every literal is where the format puts it; a variable's
// value runs up to the next literal (the format's last literal, if it ends
// the format, is matched at the end of the line, so a quote inside the last
// quoted value does not end it early). NGINX escapes '"', '\' and control
// bytes in variables as \xXX (ngx_http_log_escape), so a value never holds
// the quote that closes it.
//
// Variables read: $time_local ("10/Oct/2000:13:55:36 -0700", one-second
// resolution) or $msec (seconds since the epoch, millisecond resolution) for
// the time; $request ("GET /path?query HTTP/1.1"), $request_uri or $uri for
// the path (the query string is dropped); $body_bytes_sent or $bytes_sent
// for the size; $status; $request_time (seconds, ms resolution; "-" when
// unset). Every other variable ($remote_addr, $http_referer, ...) is
// matched and ignored. The default is NGINX's predefined `combined` format.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace models {

// NGINX's predefined format (ngx_http_log_module.c, ngx_http_combined_fmt).
inline constexpr const char* kCombinedLogFormat =
    "$remote_addr - $remote_user [$time_local] \"$request\" $status $body_bytes_sent \"$http_referer\" "
    "\"$http_user_agent\"";

// One line's fields; `path` points into the line.
struct LogFields {
  double time_s = 0;          // seconds since the epoch (UTC)
  std::string_view path;      // without the query string
  std::uint64_t bytes = 0;    // $body_bytes_sent, else $bytes_sent
  int status = 0;             // 0 when the format has no $status
  double request_time_s = -1; // negative: not in the format, or "-"
};

class LogFormat {
 public:
  enum class Var { kOther, kTimeLocal, kMsec, kRequest, kRequestUri, kUri, kStatus, kBodyBytes, kBytesSent, kRequestTime };

  // Compiles a format; nullopt with `error` saying why (two variables with
  // nothing between them, no time, no path, no size, an empty name).
  static std::optional<LogFormat> compile(std::string_view format, std::string& error);

  // Reads one line (without its newline); false with `why` when it does not
  // match the format or a field does not parse.
  bool parse(std::string_view line, LogFields& out, std::string& why) const;

  // The time has sub-second resolution ($msec).
  bool precise_time() const { return time_ == Var::kMsec; }
  bool has_request_time() const { return has_request_time_; }

 private:
  struct Token {
    bool literal;
    std::string text;  // the literal, or the variable's name
    Var var = Var::kOther;
  };
  bool field(Var var, std::string_view value, LogFields& out, std::string& why) const;
  std::vector<Token> tokens_;
  Var time_ = Var::kOther;
  bool has_request_time_ = false;
};

// "10/Oct/2000:13:55:36 -0700" as seconds since the epoch, UTC.
std::optional<double> parse_time_local(std::string_view s);

}  // namespace models
