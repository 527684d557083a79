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

// "/a/b%20c?x=1" -> "a/b c". Empty segments and "." are dropped (nginx's
// merge_slashes); "/" -> "" (the root itself). Stricter than nginx on
// purpose: rather than normalising "..", an encoded slash or a NUL, it refuses
// them (nullopt: answer 400), so no later step has to reason about escaping
// the root.
std::optional<std::string> target_to_relative_path(std::string_view target);

}  // namespace clerk::serve
