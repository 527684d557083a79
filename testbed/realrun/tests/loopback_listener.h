// For tests: a socket listening on 127.0.0.1 at a port the kernel chose.
#pragma once
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <catch2/catch.hpp>
#include <cstdint>

struct LoopbackListener {
  int fd = -1;
  sockaddr_in address{};  // 127.0.0.1:port, to connect to
  std::uint16_t port = 0;
};

inline LoopbackListener listen_on_loopback(int backlog) {
  LoopbackListener l;
  l.fd = ::socket(AF_INET, SOCK_STREAM, 0);
  REQUIRE(l.fd >= 0);
  l.address.sin_family = AF_INET;
  l.address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::bind(l.fd, reinterpret_cast<sockaddr*>(&l.address), sizeof l.address) == 0);
  REQUIRE(::listen(l.fd, backlog) == 0);
  socklen_t len = sizeof l.address;
  REQUIRE(::getsockname(l.fd, reinterpret_cast<sockaddr*>(&l.address), &len) == 0);
  l.port = ntohs(l.address.sin_port);
  return l;
}
