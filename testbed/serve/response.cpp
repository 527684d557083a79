#include "response.h"

namespace clerk::serve {

const char* reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 405: return "Not Allowed";  // nginx's wording
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Temporarily Unavailable";  // nginx's wording
    default: return "Unknown";
  }
}

std::string response_head(int status, std::uint64_t content_length, bool keep_alive) {
  std::string head;
  head.reserve(160);
  head += "HTTP/1.1 ";
  head += std::to_string(status);
  head += ' ';
  head += reason_phrase(status);
  head += "\r\nServer: clerk-serve\r\n";
  head += status == 200 ? "Content-Type: application/octet-stream\r\n" : "Content-Type: text/html\r\n";
  head += "Content-Length: ";
  head += std::to_string(content_length);
  head += keep_alive ? "\r\nConnection: keep-alive\r\n\r\n" : "\r\nConnection: close\r\n\r\n";
  return head;
}

std::string error_response(int status, bool keep_alive, bool head_only) {
  const std::string title = std::to_string(status) + " " + reason_phrase(status);
  const std::string body = "<html>\r\n<head><title>" + title + "</title></head>\r\n<body>\r\n<center><h1>" + title +
                           "</h1></center>\r\n<hr><center>clerk-serve</center>\r\n</body>\r\n</html>\r\n";
  std::string response = response_head(status, body.size(), keep_alive);
  if (!head_only) response += body;
  return response;
}

}  // namespace clerk::serve
