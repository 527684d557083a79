// Parsing a request head (Boost.Beast's request_parser does the HTTP/1.x
// grammar), and turning its target into a path relative to the root.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace clerk::serve {

struct RequestHead {
  enum class State { need_more, complete, bad };
  State state = State::need_more;
  int error_status = 400;  // when bad: 400, or 431 for a head or one field over the limit
  std::size_t consumed = 0;  // bytes of the head (complete only)
  bool method_allowed = false;  // GET or HEAD
  bool head_only = false;       // HEAD
  bool keep_alive = false;      // HTTP/1.1 without "close", 1.0 with "keep-alive"
  std::string target;
};

// Parses the head at the start of data[0, size). The bytes are fed again from
// the start after every read (Beast wants a head in one piece); a head is
// small and bounded by header_limit. A request with a body (Content-Length
// above 0 or chunked) is bad: a GET or HEAD has none (nginx would read and
// discard it). Never throws: a field over Beast's per-field limit (64 KiB,
// 16-bit lengths) is 431, any other parser exception 400.
RequestHead parse_request_head(const char* data, std::size_t size, std::size_t header_limit);

// When to run parse_request_head on a head that arrives in pieces. Beast's
// parser, given the buffer afresh, parses every complete line from the first
// byte: a bad request or header line is found as soon as it is in (nginx
// answers 400 as soon as it reads one too), but a head that trickles in a
// byte at a time would be parsed again per read, its cost growing with what
// is buffered. So the parser runs when the buffer has doubled since it last
// ran (the first read always) or when the head's end (CR LF CR LF, searched in
// the new bytes only) or the limit is reached: O(head) work in all, a bad
// line answered by the time the buffer doubles at the latest.
class HeadProgress {
 public:
  // `buffered` bytes of the head are in `data`; whether to parse them now.
  bool worth_parsing(const char* data, std::size_t buffered, std::size_t header_limit);
  void next_head() { *this = HeadProgress{}; }  // a head consumed; the next begins
  std::size_t parses() const { return parses_; }          // for tests: times worth_parsing said yes
  std::size_t bytes_searched() const { return searched_total_; }

 private:
  std::size_t searched_ = 0;   // bytes known to hold no CR LF CR LF
  std::size_t parsed_at_ = 0;  // bytes buffered when the parser last ran
  std::size_t parses_ = 0;
  std::size_t searched_total_ = 0;
};

// "/a/b%20c?x=1" -> "a/b c". Empty segments and "." are dropped (nginx's
// merge_slashes); "/" -> "" (the root itself). Stricter than nginx on
// purpose: rather than normalising "..", an encoded slash or a NUL, it refuses
// them (nullopt: answer 400), so no later step has to reason about escaping
// the root.
std::optional<std::string> target_to_relative_path(std::string_view target);

}  // namespace clerk::serve
