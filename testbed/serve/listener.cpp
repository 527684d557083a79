#include "listener.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <stdexcept>

namespace clerk::serve {

bool parse_listen_address(const std::string& text, std::string& host, std::uint16_t& port) {
  const auto colon = text.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == text.size()) return false;
  host = text.substr(0, colon);
  if (host.front() == '[') {
    if (host.size() < 3 || host.back() != ']') return false;
    host = host.substr(1, host.size() - 2);
  }
  const char* first = text.data() + colon + 1;
  const char* last = text.data() + text.size();
  unsigned value = 0;
  const auto [end, ec] = std::from_chars(first, last, value);
  if (ec != std::errc() || end != last || value > 65535) return false;
  port = static_cast<std::uint16_t>(value);
  in6_addr probe6;
  in_addr probe4;
  return inet_pton(AF_INET, host.c_str(), &probe4) == 1 || inet_pton(AF_INET6, host.c_str(), &probe6) == 1;
}

static std::runtime_error socket_error(const std::string& what, const std::string& host, std::uint16_t port) {
  return std::runtime_error(what + " " + host + ":" + std::to_string(port) + ": " + std::strerror(errno));
}

UniqueFd open_listener(const std::string& host, std::uint16_t port, bool reuseport, bool listen_now) {
  sockaddr_storage addr{};
  socklen_t len = 0;
  auto* v4 = reinterpret_cast<sockaddr_in*>(&addr);
  auto* v6 = reinterpret_cast<sockaddr_in6*>(&addr);
  if (inet_pton(AF_INET, host.c_str(), &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(port);
    len = sizeof(sockaddr_in);
  } else if (inet_pton(AF_INET6, host.c_str(), &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(port);
    len = sizeof(sockaddr_in6);
  } else {
    throw std::runtime_error("not an IP address: " + host);
  }

  UniqueFd fd(::socket(addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0));
  if (!fd.valid()) throw socket_error("socket() for", host, port);
  const int one = 1;
  // nginx sets SO_REUSEADDR on every listening socket so restarts do not wait
  // for TIME_WAIT connections to expire.
  ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (reuseport && ::setsockopt(fd.get(), SOL_SOCKET, SO_REUSEPORT, &one, sizeof one) != 0)
    throw socket_error("SO_REUSEPORT on", host, port);
  if (::bind(fd.get(), reinterpret_cast<sockaddr*>(&addr), len) != 0) throw socket_error("bind()", host, port);
  // 511: nginx's default backlog on Linux.
  if (listen_now && ::listen(fd.get(), 511) != 0) throw socket_error("listen()", host, port);
  return fd;
}

std::uint16_t bound_port(int fd) {
  sockaddr_storage addr{};
  socklen_t len = sizeof addr;
  if (::getsockname(fd, reinterpret_cast<sockaddr*>(&addr), &len) != 0) return 0;
  if (addr.ss_family == AF_INET) return ntohs(reinterpret_cast<sockaddr_in*>(&addr)->sin_port);
  return ntohs(reinterpret_cast<sockaddr_in6*>(&addr)->sin6_port);
}

}  // namespace clerk::serve
