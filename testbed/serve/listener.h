// Listening sockets, opened the way NGINX opens them: one shared socket made
// by the master before fork, or (reuseport) one SO_REUSEPORT socket per worker.
#pragma once

#include <cstdint>
#include <string>

#include "unique_fd.h"

namespace clerk::serve {

// Splits "ADDR:PORT" ("[v6]:PORT" for IPv6); false if malformed.
bool parse_listen_address(const std::string& text, std::string& host, std::uint16_t& port);

// Binds host:port (port 0: any free port). listen_now=false leaves the socket
// bound but not listening: the reuseport master holds the port that way
// (the kernel sends connections only to listening members of the group).
// Throws std::runtime_error with the reason.
UniqueFd open_listener(const std::string& host, std::uint16_t port, bool reuseport, bool listen_now);

std::uint16_t bound_port(int fd);

}  // namespace clerk::serve
