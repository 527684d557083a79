// How a wrk thread on the server's own host reads one response: as it
// arrives (wrk.c socket_readable: read() RECVBUF = 8 KiB at a time until
// the socket is drained; ae's level-triggered epoll brings the connection
// back, after the other ready ones, for what arrived meanwhile). Each turn
// on the connection reads everything that has arrived and is unread, at
// client_byte per byte, and the turn that takes the response's last byte
// also parses it (client_request: http_parser, the response's callbacks,
// writing the next request). The same in both engines, which differ only in
// how the turn's CPU time passes.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/os/host.h"

namespace models {

class ResponseReader {
 public:
  // A new request was written: nothing of its response has arrived.
  void begin() { *this = ResponseReader{}; }
  // `bytes` more of the body reached the client's socket.
  void arrived(std::uint64_t bytes) { arrived_ += bytes; }
  // The last byte reached it: `total` is the whole response, header included.
  void ended(std::uint64_t total) {
    ended_ = true;
    arrived_ = std::max(arrived_, total);
  }
  // The connection is readable: true when a turn must be queued for it
  // (none is queued yet).
  bool queue_turn() {
    if (turn_queued_) return false;
    turn_queued_ = true;
    return true;
  }

  struct Turn {
    double cpu_s;  // negative: nothing left to read (another turn took it)
    bool last;     // this turn completes the response
  };
  // The loop's turn begins: it takes what has arrived.
  Turn start_turn(const CpuCosts& costs) {
    turn_queued_ = false;
    const std::uint64_t bytes = arrived_ - consumed_;
    consumed_ = arrived_;
    if (bytes == 0 && !ended_) return Turn{-1.0, false};
    return Turn{costs.client_byte * static_cast<double>(bytes) + (ended_ ? costs.client_request : 0.0), ended_};
  }

 private:
  std::uint64_t arrived_ = 0;
  std::uint64_t consumed_ = 0;
  bool ended_ = false;
  bool turn_queued_ = false;
};

}  // namespace models
