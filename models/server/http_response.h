// The size of the response header NGINX sends for a static file, built from
// the header lines ngx_http_header_filter writes: status line, Server, Date,
// Content-Type, Content-Length, Last-Modified, Connection, ETag, Accept-Ranges.
#pragma once
#include <cstdint>
#include <string>

namespace models {

// Digits of n written in `base` (as "%llu" or "%llx" would write it).
inline std::uint64_t printed_digits(std::uint64_t n, std::uint64_t base) {
  std::uint64_t d = 1;
  while (n >= base) {
    n /= base;
    ++d;
  }
  return d;
}

inline std::uint64_t nginx_header_bytes(const std::string& version, std::uint64_t content_length) {
  const std::uint64_t http_date = 29;  // "Sat, 21 Nov 2026 21:00:00 GMT"
  const std::uint64_t length_digits = printed_digits(content_length, 10);  // Content-Length, in decimal
  const std::uint64_t etag_digits = printed_digits(content_length, 16);    // the ETag's length part, in hex
  return (sizeof("HTTP/1.1 200 OK\r\n") - 1) + (sizeof("Server: nginx/\r\n") - 1) + version.size() +
         (sizeof("Date: \r\n") - 1) + http_date + (sizeof("Content-Type: application/octet-stream\r\n") - 1) +
         (sizeof("Content-Length: \r\n") - 1) + length_digits + (sizeof("Last-Modified: \r\n") - 1) + http_date +
         (sizeof("Connection: keep-alive\r\n") - 1) +
         (sizeof("ETag: \"\"\r\n") - 1) + 8 + 1 + etag_digits +
         (sizeof("Accept-Ranges: bytes\r\n") - 1) + 2;
}

}  // namespace models
