// One accept event of a worker (ngx_event_accept), for both engines' workers:
// accept() one connection, or every pending one with multi_accept, until the
// queue is empty or (worker_connections, listen_sockets.h) a connection
// finds no free slot: ngx_event_accept then returns at once, so neither a
// further accept() nor ngx_reorder_accept_events follows.
#pragma once
#include <cstdint>

namespace models {

enum class Accepted : std::uint8_t {
  kNone,     // accept() said EAGAIN
  kTaken,    // a connection, with its slot
  kRefused,  // a connection closed at once: "worker_connections are not enough"
};

// `server` needs accept_one(w) -> Accepted, accept_event_done(w) and
// config().multi_accept. Returns kTaken when the event took a connection,
// else kRefused when it closed one, else kNone.
template <class Server, class W>
Accepted accept_event(Server& server, W& w) {
  Accepted a = server.accept_one(w);
  const Accepted first = a;
  bool taken = a == Accepted::kTaken;
  if (taken && server.config().multi_accept)
    while ((a = server.accept_one(w)) == Accepted::kTaken) {
    }
  // ngx_event_accept leaves its loop only by returning (EAGAIN, or no free
  // connection) when multi_accept is on (epoll never counts ev->available
  // down), so ngx_reorder_accept_events runs only without it.
  if (taken && a != Accepted::kRefused && !server.config().multi_accept) server.accept_event_done(w);
  return taken ? Accepted::kTaken : first;
}

}  // namespace models
