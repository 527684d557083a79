// clerk-replay's reader of an HTTP/1.x response head (RFC 9112), kept to
// what NGINX and clerk-serve send for a static file: a status line, header
// fields, a Content-Length body. It is given the bytes read so far on a
// connection and says whether the head is all in, and if so what it says:
//  - the status line is "HTTP/1.D NNN[ reason]"; a 1xx interim response is
//    refused (none is expected for a GET without Expect);
//  - each field line is "name: value", the name a token (no space before
//    the colon);
//  - the body's length is Content-Length (digits; repeated only with the
//    same value); 204 and 304 have no body whatever it says (RFC 9110
//    8.6); Transfer-Encoding is refused (a chunked body is not read);
//  - the connection closes after the response when a Connection field
//    lists "close", or, for HTTP/1.0, when none lists "keep-alive".
// A head that does not end (CRLF CRLF) within kMaxHeadBytes is refused.
// A refusal names the line (1: the status line) and what is wrong with it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace testbed::replay {

inline constexpr std::size_t kMaxHeadBytes = 65536;

struct ResponseHead {
  int status = 0;                   // 200 to 999
  std::uint64_t body_bytes = 0;     // what follows the head
  bool close = false;               // the server closes after this response
  std::size_t head_bytes = 0;       // through the blank line
};

struct HeadParse {
  enum class State { kIncomplete, kComplete, kMalformed };
  State state = State::kIncomplete;
  ResponseHead head;  // kComplete
  std::string error;  // kMalformed: "line N: ..."
};

// The head at the start of `in` (the bytes read so far).
HeadParse parse_response_head(std::string_view in);

}  // namespace testbed::replay
