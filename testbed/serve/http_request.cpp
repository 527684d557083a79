#include "http_request.h"

#include <boost/beast/http/empty_body.hpp>
#include <boost/beast/http/error.hpp>
#include <boost/beast/http/parser.hpp>
#include <new>
#include <stdexcept>

namespace clerk::serve {

namespace http = boost::beast::http;

namespace {

RequestHead refused(int status) {
  RequestHead head;
  head.state = RequestHead::State::bad;
  head.error_status = status;
  return head;
}

RequestHead parse_head_unguarded(const char* data, std::size_t size, std::size_t header_limit) {
  RequestHead head;
  http::request_parser<http::empty_body> parser;
  parser.header_limit(static_cast<std::uint32_t>(header_limit));
  parser.eager(false);  // stop after the head: we look at the body ourselves
  boost::system::error_code ec;
  const std::size_t used = parser.put(boost::asio::buffer(data, size), ec);
  if (ec == http::error::need_more) {
    if (size >= header_limit) {
      head.state = RequestHead::State::bad;
      head.error_status = 431;
    }
    return head;
  }
  head.state = RequestHead::State::bad;
  if (ec) {
    if (ec == http::error::header_limit) head.error_status = 431;
    return head;
  }
  if (!parser.is_header_done()) return head;
  if (!parser.is_done() || parser.chunked()) return head;  // a body follows
  const auto& request = parser.get();
  if (request.version() != 10 && request.version() != 11) return head;
  // HTTP/1.1 requires Host (nginx answers 400 without it).
  if (request.version() == 11 && request.find(http::field::host) == request.end()) return head;
  head.state = RequestHead::State::complete;
  head.consumed = used;
  head.method_allowed = request.method() == http::verb::get || request.method() == http::verb::head;
  head.head_only = request.method() == http::verb::head;
  head.keep_alive = request.keep_alive();
  head.target = std::string(request.target());
  return head;
}

}  // namespace

RequestHead parse_request_head(const char* data, std::size_t size, std::size_t header_limit) {
  // Beast stores a field's name and value with 16-bit lengths and throws
  // std::length_error for one of 64 KiB or more, which a --header-limit
  // above 64 KiB lets through: that field is over Beast's own per-field
  // limit, so 431 as for a head over ours. Whatever else the parser throws
  // concerns this request only: 400, and the worker keeps serving.
  try {
    return parse_head_unguarded(data, size, header_limit);
  } catch (const std::length_error&) {
    return refused(431);
  } catch (const std::bad_alloc&) {
    return refused(431);
  } catch (const std::exception&) {
    return refused(400);
  }
}

bool HeadProgress::worth_parsing(const char* data, std::size_t buffered, std::size_t header_limit) {
  static constexpr std::string_view kEnd = "\r\n\r\n";
  const std::size_t from = searched_ > 3 ? searched_ - 3 : 0;
  bool parse = buffered >= header_limit || buffered >= 2 * parsed_at_;
  if (!parse && buffered > from) {
    searched_total_ += buffered - from;
    parse = std::string_view(data + from, buffered - from).find(kEnd) != std::string_view::npos;
  }
  searched_ = buffered;
  if (parse) {
    parsed_at_ = buffered;
    ++parses_;
  }
  return parse;
}

static int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Appends one decoded segment; false if it must be refused.
static bool add_segment(std::string_view raw, std::string& out) {
  std::string segment;
  segment.reserve(raw.size());
  for (std::size_t i = 0; i < raw.size(); ++i) {
    char c = raw[i];
    if (c == '%') {
      if (i + 2 >= raw.size()) return false;  // truncated escape
      const int high = hex_value(raw[i + 1]);
      const int low = hex_value(raw[i + 2]);
      if (high < 0 || low < 0) return false;
      c = static_cast<char>(high * 16 + low);
      i += 2;
      // An encoded '/' would hide a segment boundary from the check below.
      if (c == '/') return false;
    }
    if (c == '\0') return false;
    segment.push_back(c);
  }
  if (segment.empty() || segment == ".") return true;
  if (segment == "..") return false;
  if (!out.empty()) out.push_back('/');
  out += segment;
  return true;
}

std::optional<std::string> target_to_relative_path(std::string_view target) {
  // Only origin-form ("/path"); nginx also takes absolute-form URLs.
  if (target.empty() || target.front() != '/') return std::nullopt;
  const auto query = target.find_first_of("?#");
  if (query != std::string_view::npos) target = target.substr(0, query);

  std::string path;
  std::size_t start = 0;
  while (start <= target.size()) {
    auto slash = target.find('/', start);
    if (slash == std::string_view::npos) slash = target.size();
    if (!add_segment(target.substr(start, slash - start), path)) return std::nullopt;
    start = slash + 1;
  }
  return path;
}

}  // namespace clerk::serve
