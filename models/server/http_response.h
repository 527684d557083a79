// The size of the response header NGINX sends for a static file, built from
// the header lines ngx_http_header_filter writes: status line, Server, Date,
// Content-Type, Content-Length, Last-Modified, Connection, ETag, Accept-Ranges.
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>

namespace models {

inline std::uint64_t nginx_header_bytes(const std::string& version, std::uint64_t content_length) {
  const std::uint64_t http_date = 29;  // "Sat, 21 Nov 2026 21:00:00 GMT"
  const std::string length = std::to_string(content_length);
  char etag_length[32];
  const int etag_digits = std::snprintf(etag_length, sizeof etag_length, "%llx",
                                        static_cast<unsigned long long>(content_length));
  return (sizeof("HTTP/1.1 200 OK\r\n") - 1) + (sizeof("Server: nginx/\r\n") - 1) + version.size() +
         (sizeof("Date: \r\n") - 1) + http_date + (sizeof("Content-Type: application/octet-stream\r\n") - 1) +
         (sizeof("Content-Length: \r\n") - 1) + length.size() + (sizeof("Last-Modified: \r\n") - 1) + http_date +
         (sizeof("Connection: keep-alive\r\n") - 1) +
         (sizeof("ETag: \"\"\r\n") - 1) + 8 + 1 + static_cast<std::uint64_t>(etag_digits) +
         (sizeof("Accept-Ranges: bytes\r\n") - 1) + 2;
}

}  // namespace models
