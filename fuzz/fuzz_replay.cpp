// libFuzzer target: clerk-replay's reader of an HTTP response head
// (testbed/replay/response_head.h), on what a server might send.
//
// The input is the bytes read on a connection so far.
//
// Contract on every input (the reader throws nothing):
//  - incomplete only while no CRLF CRLF has come and fewer than
//    kMaxHeadBytes are in;
//  - complete: a status of 200 to 999, a head ending in CRLF CRLF within the
//    input and kMaxHeadBytes, no body for 204 and 304, and the same answer
//    from the head alone (what follows it is the body's);
//  - malformed: an error "line N: why", N from 1 to the head's lines;
//  - a shorter prefix ending before the head's end is incomplete.
#include <cstdint>
#include <string>
#include <string_view>

#include <fmt/format.h>

#include "fuzz/contract.h"
#include "testbed/replay/response_head.h"

namespace {

using testbed::replay::HeadParse;
using testbed::replay::kMaxHeadBytes;
using testbed::replay::parse_response_head;

std::size_t line_count(std::string_view s) {
  std::size_t n = 1;
  for (std::size_t at = s.find("\r\n"); at != std::string_view::npos; at = s.find("\r\n", at + 2)) ++n;
  return n;
}

void check_error(std::string_view in, const std::string& error) {
  std::size_t digits = 0;
  while (5 + digits < error.size() && error[5 + digits] >= '0' && error[5 + digits] <= '9') ++digits;
  const bool form = error.rfind("line ", 0) == 0 && digits > 0 && digits < 7 && error.size() > 7 + digits &&
                    error.compare(5 + digits, 2, ": ") == 0;
  if (!form) fuzz::breach("an error not of the form 'line N: why': " + error);
  const std::size_t line = std::stoul(error.substr(5, digits));
  const std::size_t end = in.find("\r\n\r\n");
  const std::size_t lines = line_count(in.substr(0, end == std::string_view::npos ? kMaxHeadBytes : end + 2));
  if (line < 1 || line > lines) fuzz::breach(fmt::format("{} names a line past the head's {}", error, lines));
}

void check_complete(std::string_view in, const HeadParse& p) {
  const auto& h = p.head;
  if (h.status < 200 || h.status > 999) fuzz::breach(fmt::format("status {}", h.status));
  if (h.head_bytes < 4 || h.head_bytes > in.size() || h.head_bytes > kMaxHeadBytes ||
      in.substr(h.head_bytes - 4, 4) != "\r\n\r\n" || in.find("\r\n\r\n") != h.head_bytes - 4)
    fuzz::breach(fmt::format("the head's end at {} is not the first CRLF CRLF", h.head_bytes));
  if ((h.status == 204 || h.status == 304) && h.body_bytes != 0) fuzz::breach("a body for 204 or 304");
  const HeadParse alone = parse_response_head(in.substr(0, h.head_bytes));
  if (alone.state != HeadParse::State::kComplete || alone.head.status != h.status ||
      alone.head.body_bytes != h.body_bytes || alone.head.close != h.close || alone.head.head_bytes != h.head_bytes)
    fuzz::breach("the head alone reads differently from the head and body");
  if (parse_response_head(in.substr(0, h.head_bytes - 1)).state != HeadParse::State::kIncomplete)
    fuzz::breach("the head short of its last byte is not incomplete");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view in(reinterpret_cast<const char*>(data), size);
  const HeadParse p = parse_response_head(in);
  switch (p.state) {
    case HeadParse::State::kIncomplete:
      if (in.find("\r\n\r\n") != std::string_view::npos || in.size() >= kMaxHeadBytes)
        fuzz::breach("incomplete with the head's end in, or with kMaxHeadBytes in");
      if (!p.error.empty()) fuzz::breach("incomplete with an error");
      break;
    case HeadParse::State::kComplete:
      check_complete(in, p);
      break;
    case HeadParse::State::kMalformed:
      check_error(in, p.error);
      break;
  }
  return 0;
}
