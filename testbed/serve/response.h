// Response heads, and the short bodies nginx sends with its error pages.
#pragma once

#include <cstdint>
#include <string>

namespace clerk::serve {

// The status line and headers, ending with the blank line.
std::string response_head(int status, std::uint64_t content_length, bool keep_alive);

// A complete error response (head + a small HTML body; the head only for
// HEAD requests).
std::string error_response(int status, bool keep_alive, bool head_only);

const char* reason_phrase(int status);

}  // namespace clerk::serve
