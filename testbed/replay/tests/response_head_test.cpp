// clerk-replay's reader of a response head (testbed/replay/response_head.h):
// what NGINX and clerk-serve send, heads still arriving, and heads it refuses
// with the line named.
#include <catch2/catch.hpp>
#include <string>

#include "testbed/replay/response_head.h"

using testbed::replay::HeadParse;
using testbed::replay::kMaxHeadBytes;
using testbed::replay::parse_response_head;
using State = HeadParse::State;

namespace {
const std::string kNginx =
    "HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nDate: Fri, 27 Nov 2026 05:00:00 GMT\r\n"
    "Content-Type: application/octet-stream\r\nContent-Length: 4096\r\nConnection: keep-alive\r\n"
    "Accept-Ranges: bytes\r\n\r\n";
}  // namespace

TEST_CASE("a response head as NGINX sends it: status, body length, keep-alive, where the body starts") {
  const HeadParse p = parse_response_head(kNginx + "body bytes");
  REQUIRE(p.state == State::kComplete);
  CHECK(p.head.status == 200);
  CHECK(p.head.body_bytes == 4096);
  CHECK_FALSE(p.head.close);
  CHECK(p.head.head_bytes == kNginx.size());
}

TEST_CASE("a head still arriving is incomplete, at every length short of its end") {
  for (std::size_t n = 0; n < kNginx.size(); ++n) {
    INFO(n);
    CHECK(parse_response_head(kNginx.substr(0, n)).state == State::kIncomplete);
  }
}

TEST_CASE("Connection: close (any case, in a list), and HTTP/1.0 closes unless keep-alive") {
  auto close = [](const std::string& version, const std::string& fields) {
    const HeadParse p = parse_response_head(version + " 200 OK\r\nContent-Length: 0\r\n" + fields + "\r\n");
    REQUIRE(p.state == State::kComplete);
    return p.head.close;
  };
  CHECK(close("HTTP/1.1", "Connection: close\r\n"));
  CHECK(close("HTTP/1.1", "connection:Upgrade, CLOSE \r\n"));
  CHECK_FALSE(close("HTTP/1.1", "Connection: closed\r\n"));  // another token
  CHECK_FALSE(close("HTTP/1.1", "X-Note: Connection: close\r\n"));
  CHECK(close("HTTP/1.0", ""));
  CHECK_FALSE(close("HTTP/1.0", "Connection: keep-alive\r\n"));
  // A body that reads like a field does not count (the old reader searched past the head).
  const HeadParse p = parse_response_head("HTTP/1.1 200 OK\r\nContent-Length: 20\r\n\r\n\r\nConnection: close\r\n");
  REQUIRE(p.state == State::kComplete);
  CHECK_FALSE(p.head.close);
}

TEST_CASE("204 and 304 have no body, an error status still has its Content-Length") {
  const HeadParse none = parse_response_head("HTTP/1.1 304 Not Modified\r\nContent-Length: 4096\r\n\r\n");
  REQUIRE(none.state == State::kComplete);
  CHECK(none.head.body_bytes == 0);
  CHECK(parse_response_head("HTTP/1.1 204 No Content\r\n\r\n").state == State::kComplete);
  const HeadParse missing = parse_response_head("HTTP/1.1 404 Not Found\r\nContent-Length: 153\r\n\r\n");
  REQUIRE(missing.state == State::kComplete);
  CHECK(missing.head.status == 404);
  CHECK(missing.head.body_bytes == 153);
  CHECK(parse_response_head("HTTP/1.1 200\r\nContent-Length: 1\r\n\r\n").state == State::kComplete);  // no reason
  // The same length twice is one length.
  CHECK(parse_response_head("HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length:5\r\n\r\n").head.body_bytes == 5);
}

TEST_CASE("a malformed head is refused with its line named") {
  auto error = [](const std::string& head) {
    const HeadParse p = parse_response_head(head);
    REQUIRE(p.state == State::kMalformed);
    return p.error;
  };
  CHECK(error("HTTP/2 200 OK\r\n\r\n").rfind("line 1: not a status line", 0) == 0);
  CHECK(error("HTTP/1.1 20 OK\r\n\r\n").rfind("line 1: not a status line", 0) == 0);
  CHECK(error("HTTP/1.1 2000 OK\r\n\r\n").rfind("line 1: not a status line", 0) == 0);
  CHECK(error("HTTP/1.1 099 X\r\n\r\n").rfind("line 1: status 099", 0) == 0);
  CHECK(error("HTTP/1.1 100 Continue\r\n\r\n").rfind("line 1: an interim", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nServer nginx\r\n\r\n").rfind("line 2: a header field without ':'", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nA: b\r\n: x\r\n\r\n").rfind("line 3: a header field with no name", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nContent-Length : 5\r\n\r\n").rfind("line 2: a header field name", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\n folded: x\r\n\r\n").rfind("line 2: a header field name", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n").rfind("line 2: Content-Length is not", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551616\r\n\r\n").rfind("line 2: Content-Length", 0) ==
        0);  // 2^64
  CHECK(error("HTTP/1.1 200 OK\r\nContent-Length:\r\n\r\n").rfind("line 2: Content-Length", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n").rfind("line 3: a second", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n").rfind("line 2: Transfer-Encoding", 0) == 0);
  CHECK(error("HTTP/1.1 200 OK\r\nServer: x\r\n\r\n").rfind("line 3: the head ends with no Content-Length", 0) == 0);
  // The largest length is taken.
  CHECK(parse_response_head("HTTP/1.1 200 OK\r\nContent-Length: 18446744073709551615\r\n\r\n").head.body_bytes ==
        UINT64_MAX);
}

TEST_CASE("a head that does not end within 64 KiB is refused") {
  const std::string endless = "HTTP/1.1 200 OK\r\nX: " + std::string(kMaxHeadBytes, 'a');
  CHECK(parse_response_head(endless.substr(0, kMaxHeadBytes - 1)).state == State::kIncomplete);
  const HeadParse p = parse_response_head(endless);
  REQUIRE(p.state == State::kMalformed);
  CHECK(p.error.rfind("line 2: no end of the head", 0) == 0);
  // Its end past the limit, in one read: refused too.
  CHECK(parse_response_head(endless + "\r\n\r\n").state == State::kMalformed);
}
