// How a wrk thread on the server's own host reads one response: as it
// arrives (wrk.c socket_readable: read() RECVBUF = 8 KiB at a time until
// the socket is drained; ae's level-triggered epoll brings the connection
// back, after the other ready ones, for what arrived meanwhile). Each turn
// on the connection reads everything that has arrived and is unread, at
// client_byte per byte, and the turn that takes the response's last byte
// also parses it (client_request: http_parser, the response's callbacks,
// writing the next request). The same in both engines, which differ only in
// how the turn's CPU time passes.
//
// Bytes whose loopback receive path the server's sendfile() already ran
// (host.h, loopback_rx_byte: the client had read everything it had been
// sent) cost the turn that reads them client_byte less that part; the
// others also cost it TCP's pacing (host.h, loopback_pacing_byte), since
// the client's ACKs transmitted them.
#pragma once
#include <algorithm>
#include <cstdint>

#include "models/os/host.h"

namespace models {

class ResponseReader {
 public:
  // A new request was written: nothing of its response has arrived.
  void begin() { *this = ResponseReader{}; }
  // `bytes` more of the body left the server for the client's socket.
  void on_way(std::uint64_t bytes) { on_way_ += bytes; }
  // `bytes` more of the body reached the client's socket.
  void arrived(std::uint64_t bytes) {
    arrived_ += bytes;
    on_way_ -= std::min(on_way_, bytes);
  }
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
  // Everything sent so far has arrived and been read, and no turn is waiting to.
  bool caught_up() const { return on_way_ == 0 && arrived_ == consumed_ && !turn_queued_; }
  // The server is about to send `bytes`: true when the sender runs their
  // receive path (the client has caught up and is not reading this
  // connection now: a reader in tcp_recvmsg() owns the socket, and the
  // segment goes to its backlog), which the turn that reads them then
  // does not pay.
  bool sender_runs_receive(std::uint64_t bytes, bool reading_now) {
    if (reading_now || !caught_up()) return false;
    prepaid_ += bytes;
    return true;
  }

  // The loop's turn begins: it takes what has arrived.
  Turn start_turn(const CpuCosts& costs) {
    turn_queued_ = false;
    const std::uint64_t bytes = arrived_ - consumed_;
    consumed_ = arrived_;
    if (bytes == 0 && !ended_) return Turn{-1.0, false};
    const std::uint64_t prepaid = std::min(prepaid_, bytes);
    prepaid_ -= prepaid;
    const double rx = std::min(costs.loopback_rx_byte, costs.client_byte);
    // What the sender did not transmit itself, this thread's ACKs did: its pacing is paid here.
    return Turn{costs.client_byte * static_cast<double>(bytes) - rx * static_cast<double>(prepaid) +
                    costs.loopback_pacing_byte * static_cast<double>(bytes - prepaid) +
                    (ended_ ? costs.client_request : 0.0),
                ended_};
  }

 private:
  std::uint64_t arrived_ = 0;
  std::uint64_t consumed_ = 0;
  bool ended_ = false;
  bool turn_queued_ = false;
  std::uint64_t on_way_ = 0;   // sent by the server, not yet arrived (the network's one-way delay)
  std::uint64_t prepaid_ = 0;  // arrived or on their way, their receive path run by the sender
};

}  // namespace models
