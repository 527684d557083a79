#include "engines/simgrid/sg_clients.h"

#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_host.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

SgClients::SgClients(const Platform& platform, std::vector<models::WrkGroupSpec> groups, double one_way_s,
                     sim::Time duration, const sim::RandomStreams& streams, std::vector<models::FilePicker> pickers,
                     std::vector<std::uint64_t> response_bytes, const models::CpuCosts& costs)
    : platform_(platform),
      one_way_(sim::from_seconds_ceil(one_way_s)),
      duration_(duration),
      pickers_(std::move(pickers)),
      response_bytes_(std::move(response_bytes)),
      costs_(costs) {
  for (const auto& spec : groups) groups_.emplace_back(spec);
  for (std::uint32_t g = 0; g < groups_.size(); ++g)
    for (std::uint32_t t = 0; t < groups_[g].spec.threads; ++t) {
      Thread th;
      th.group = g;
      th.rng = streams.stream(models::kWrkThreadStreams + g, t);
      th.on_host = groups_[g].spec.on_server_host;
      threads_.push_back(std::move(th));
    }
}

void SgClients::start(models::ServerSide& server) {
  server_ = &server;
  running_ = true;
  alarms_.start(platform_.clients);
  for (std::uint32_t t = 0; t < threads_.size(); ++t) {
    if (threads_[t].on_host) {
      threads_[t].wake = &thread_wakes_.emplace_back();
      sg4::Actor::create("wrk-thread", platform_.server, [this, t] { host_thread(t); })->daemonize();
    }
    const models::WrkGroup& g = groups_[threads_[t].group];
    const std::uint32_t per_thread = g.spec.connections / g.spec.threads;
    for (std::uint32_t i = 0; i < per_thread; ++i) {
      const auto s = static_cast<std::uint32_t>(sockets_.size());
      sockets_.emplace_back();
      socket_alarms_.push_back(alarms_.add_sleeper());
      sg4::Actor::create("wrk", platform_.clients, [this, s, t, i] { socket(s, t, i); })->daemonize();
    }
    if (g.spec.rate > 0) {
      // Open loop, as models::Wrk::start: one schedule per connection, their
      // first requests spread over one interval (by the schedule's index
      // among all groups', as there).
      const double open = g.spec.threads * per_thread;
      for (std::uint32_t i = 0; i < per_thread; ++i) {
        const auto slot = static_cast<std::uint32_t>(slots_.size());
        slots_.push_back(Slot{t, UINT32_MAX, {}, alarms_.add_sleeper()});
        const double offset = interval_s(g) * (static_cast<double>(slot % static_cast<std::uint32_t>(open)) / open);
        const sim::Time first = sim::from_seconds_ceil(offset);
        sg4::Actor::create("wrk2-schedule", platform_.clients, [this, slot, first] { schedule(slot, first); })
            ->daemonize();
      }
    }
  }
}

double SgClients::interval_s(const models::WrkGroup& g) const {
  const double open = g.spec.threads * (g.spec.connections / g.spec.threads);
  return open / g.spec.rate;
}

// models::Wrk's kDue: the request is counted when due; the next due time is
// drawn (from the thread's stream, before the request's file) and the
// request goes out now if its connection is connected and idle.
void SgClients::schedule(std::uint32_t s, sim::Time first) {
  Slot& slot = slots_[s];
  Thread& th = threads_[slot.thread];
  models::WrkGroup& g = groups_[th.group];
  alarms_.sleep_until(slot.alarm, first);
  for (;;) {
    if (!running_) return;
    ++g.issued;
    const sim::Time now = now_ns();
    const double gap = g.spec.poisson ? th.rng.exponential(interval_s(g)) : interval_s(g);
    const sim::Time next = now + sim::from_seconds_ceil(gap);
    bool sent = false;
    if (slot.conn != UINT32_MAX) {
      Conn& c = conns_[slot.conn];
      // Not ahead of older due requests: a same-host connection's queued
      // write takes those first (models/clients/wrk.cpp, kDue).
      if (c.alive && c.connected && !c.busy && slot.pending.empty()) {
        send_request(slot.conn, now);
        c.sent_at = now;
        sockets_[c.socket].notify();
        sent = true;
      }
    }
    if (!sent) slot.pending.push_back(now);
    alarms_.sleep_until(slot.alarm, next);
  }
}

void SgClients::bind_slot(std::uint32_t id) {
  Conn& c = conns_[id];
  for (std::uint32_t s = 0; s < slots_.size(); ++s) {
    Slot& slot = slots_[s];
    if (slot.conn != UINT32_MAX && conns_[slot.conn].alive) continue;
    if (slot.thread != c.thread) continue;
    slot.conn = id;
    c.slot = s;
    return;
  }
}

bool SgClients::send_pending(std::uint32_t id) {
  Slot& slot = slots_[conns_[id].slot];
  if (slot.pending.empty()) return false;
  const sim::Time due = slot.pending.front();
  slot.pending.pop_front();
  send_request(id, due);
  return true;
}

void SgClients::sleep_until(std::uint32_t s, sim::Time at) { alarms_.sleep_until(socket_alarms_[s], at); }

void SgClients::sleep_ns(std::uint32_t s, sim::Time d) { sleep_until(s, now_ns() + d); }

void SgClients::sleep_one_way(std::uint32_t s) { sleep_ns(s, one_way_); }

void SgClients::host_thread(std::uint32_t t) {
  Thread& th = threads_[t];
  for (;;) {
    while (th.work.empty()) th.wake->wait();
    const Work w = th.work.front();
    th.work.pop_front();
    if (w.conn != UINT32_MAX) {
      read_turn(w.conn);
      continue;
    }
    use_cpu(w.cpu_s);
    *w.finished = true;
    w.done->notify();
  }
}

void SgClients::readable(std::uint32_t id) {
  Conn& c = conns_[id];
  if (!c.reader.queue_turn()) return;
  threads_[c.thread].work.push_back(Work{0, nullptr, nullptr, id});
  threads_[c.thread].wake->notify();
}

// The thread's turn on a readable connection; the socket hears when the
// turn that took the last byte is over.
void SgClients::read_turn(std::uint32_t id) {
  const models::ResponseReader::Turn turn = conns_[id].reader.start_turn(costs_);
  if (turn.cpu_s < 0) return;  // nothing left to read on it
  Thread& th = threads_[conns_[id].thread];
  th.reading = id;
  use_cpu(turn.cpu_s);
  th.reading = UINT32_MAX;
  if (!turn.last) return;
  Conn& c = conns_[id];
  c.read_done = true;
  sockets_[c.socket].notify();
}

void SgClients::on_thread(std::uint32_t t, double cpu_s, Wakeup& wake) {
  // Waits on a flag, not on the notify alone: a zero-length burst can end
  // before this actor reaches its wait, and Wakeup drops a notify nobody waits for.
  bool finished = false;
  threads_[t].work.push_back(Work{cpu_s, &wake, &finished});
  threads_[t].wake->notify();
  while (!finished) wake.wait();
}

void SgClients::send_request(std::uint32_t id, sim::Time due) {
  Conn& c = conns_[id];
  models::WrkGroup& g = groups_[c.group];
  Thread& t = threads_[c.thread];
  c.file = g.spec.fixed_file >= 0 ? static_cast<std::uint32_t>(g.spec.fixed_file)
                                  : pickers_[c.group].pick(t.rng);
  c.start = due;
  c.busy = true;
  c.reader.begin();
  c.read_done = false;
  if (c.slot == UINT32_MAX) ++g.issued;  // open loop: counted when due
}

void SgClients::socket(std::uint32_t s, std::uint32_t thread, std::uint32_t i) {
  Wakeup& wake = sockets_[s];
  const std::uint32_t group = threads_[thread].group;
  const bool on_host = threads_[thread].on_host;
  // The thread's connect loop: its i-th connection is opened after i + 1
  // connect() costs (on the server host, its own CPU time paces it).
  double connect_delay = costs_.client_connect * (i + 1);
  for (;;) {
    if (on_host)
      on_thread(thread, costs_.client_connect, wake);
    else
      sleep_ns(s, sim::from_seconds_ceil(connect_delay));
    connect_delay = costs_.client_connect;
    if (!running_) return;
    const auto id = static_cast<std::uint32_t>(conns_.size());
    conns_.push_back(Conn{group, thread, s});
    ++groups_[group].open;
    Conn& c = conns_[id];
    const bool open_loop = groups_[group].spec.rate > 0;
    if (open_loop) bind_slot(id);
    // Three-way handshake: connect() returns after one round trip and wrk
    // writes its request at once; the server's accept queue gets the
    // connection with the final ACK, together with the request.
    const sim::Time opened = now_ns();
    // Over loopback the handshake completes inside the thread's connect()
    // (models/clients/wrk.cpp): the server queues the connection at once.
    if (on_host) server_->connection_arrived(id, group);
    sleep_until(s, opened + 2 * one_way_);
    c.connected = true;
    bool requested = running_ && c.alive;
    if (requested && !open_loop) send_request(id, now_ns());
    if (requested && open_loop) requested = send_pending(id);
    sleep_until(s, opened + 3 * one_way_);
    if (!on_host) server_->connection_arrived(id, group);
    if (requested && c.alive) server_->request_arrived(id, c.file);
    bool reconnect = false;
    while (!reconnect) {
      while (c.first_byte_at < 0 && c.chunks.empty() && c.delivered_at < 0 && !c.closed && c.sent_at < 0)
        wake.wait();
      if (c.sent_at >= 0) {
        // Open loop: the schedule wrote a request on this idle connection; it reaches the server.
        sleep_until(s, c.sent_at + one_way_);
        c.sent_at = -1;
        if (c.alive) server_->request_arrived(id, c.file);
        continue;
      }
      if (c.first_byte_at >= 0) {
        // The response's header reaches the client: time to first byte.
        sleep_until(s, c.first_byte_at + one_way_);
        c.first_byte_at = -1;
        if (!c.busy || !c.alive || !running_) continue;
        groups_[group].record_ttfb(now_ns(), sim::to_seconds(now_ns() - c.start));
        continue;
      }
      if (!c.chunks.empty()) {
        // A body chunk reaches the client (the header went before it, the last byte after).
        const auto [sent_at, bytes] = c.chunks.front();
        c.chunks.pop_front();
        sleep_until(s, sent_at + one_way_);
        if (!c.busy || !c.alive || !running_) continue;
        c.reader.arrived(bytes);
        readable(id);
        continue;
      }
      if (c.closed) {
        // The server dropped the connection: wrk reads the close, counts a
        // read error and reconnects (models::Wrk's kClosedAtClient). After
        // the stop it reads no more: a failed request's close stays unseen.
        // One way after the close itself, not after this actor got here: a
        // request refused at once (a pool overflow right after the header)
        // closes at the instant of its first byte, whose arrival the branch
        // above slept until, and one way more then read the close late and
        // slowed every reconnect by a one-way delay (the native engine's
        // kClosedAtClient is due one way after on_connection_closed).
        sleep_until(s, c.closed_at + one_way_);
        --groups_[group].open;
        if (!running_) return;
        groups_[group].close_read(c.closed_request);
        c.closed_request = models::ClosedRequest::kNone;
        reconnect = true;
        break;
      }
      // The response's last byte reaches the client.
      sleep_until(s, c.delivered_at + one_way_);
      c.delivered_at = -1;
      if (on_host) {
        // The rest of the response is in: the thread's turns read it.
        c.reader.ended(response_bytes_[c.file]);
        readable(id);
        while (!c.read_done) wake.wait();
      }
      if (!c.busy || !c.alive || !running_) return;  // after the stop wrk reads no more
      models::WrkGroup& g = groups_[group];
      c.busy = false;
      const sim::Time latency = now_ns() - c.start;
      ++threads_[thread].rate.requests;
      g.record_response(now_ns(), latency, response_bytes_[c.file]);
      if (c.closing) {
        // Connection: close: wrk reconnects (not an error).
        c.alive = false;
        --g.open;
        reconnect = true;
        break;
      }
      if (on_host) {
        // socket_writeable() writes when the thread's loop comes round to
        // this connection, behind the turns queued before it (models/clients/wrk.h).
        on_thread(thread, 0.0, wake);
        if (!running_) return;
        if (c.closed) continue;  // the server dropped it meanwhile: no write, a reconnect
        if (c.busy) continue;    // the open-loop schedule wrote on it meanwhile (sent_at)
      }
      if (open_loop && !send_pending(id)) continue;  // idle until its schedule's next request
      if (!open_loop) send_request(id, now_ns());
      sleep_one_way(s);
      if (c.alive) server_->request_arrived(id, c.file);
    }
  }
}

void SgClients::on_response_delivered(std::uint32_t conn, bool closes) {
  Conn& c = conns_[conn];
  c.closing = closes;
  c.delivered_at = now_ns();
  sockets_[c.socket].notify();
}

// As the native engine's wrk (models/clients/wrk.cpp): the sender runs the
// receive path while the client has caught up and is not reading that connection.
bool SgClients::sender_runs_receive(std::uint32_t conn, std::uint64_t bytes) {
  Conn& c = conns_[conn];
  const Thread& th = threads_[c.thread];
  if (models::loopback_transmit_byte(costs_) <= 0 || !th.on_host || !c.busy) return false;
  return c.reader.sender_runs_receive(bytes, th.reading == conn);
}

void SgClients::on_data_sent(std::uint32_t conn, std::uint64_t bytes) {
  Conn& c = conns_[conn];
  if (!threads_[c.thread].on_host) return;  // a client elsewhere spends no CPU here
  c.reader.on_way(bytes);
  c.chunks.emplace_back(now_ns(), bytes);
  sockets_[c.socket].notify();
}

void SgClients::on_first_byte(std::uint32_t conn) {
  Conn& c = conns_[conn];
  c.first_byte_at = now_ns();
  sockets_[c.socket].notify();
}

void SgClients::on_connection_closed(std::uint32_t conn, const std::string& reason) {
  Conn& c = conns_[conn];
  c.closed_request = groups_[c.group].server_closed(c.busy, reason);
  c.busy = false;
  c.alive = false;
  c.closed = true;
  c.closed_at = now_ns();
  sockets_[c.socket].notify();
}

void SgClients::begin_window() {
  std::vector<std::uint64_t> in_flight(groups_.size(), 0);
  for (const Conn& c : conns_)
    if (c.busy && c.alive) ++in_flight[c.group];
  for (const Slot& s : slots_) in_flight[threads_[s.thread].group] += s.pending.size();
  for (std::uint32_t g = 0; g < groups_.size(); ++g) groups_[g].restart(now_ns(), in_flight[g]);
  for (Conn& c : conns_)
    if (c.closed_request == models::ClosedRequest::kFailed) c.closed_request = models::ClosedRequest::kFailedBeforeWindow;
  for (Thread& t : threads_) t.rate = models::WrkThreadRate{0, now_ns()};
}

void SgClients::tick() {
  for (Thread& t : threads_) groups_[t.group].record_rate(now_ns(), t.rate);
}

// wrk's end-of-run figures and report (models::WrkGroup::result).
std::vector<models::WrkResult> SgClients::finish() {
  // The requests still in flight, each at its age (models::WrkResult::in_flight_age):
  // written and unanswered, and (open loop) due but not yet written.
  std::vector<models::WrkResult> out;
  std::vector<sim::LatencyStats> ages(groups_.size());
  for (const Conn& c : conns_)
    if (c.busy && c.alive) ages[c.group].record(sim::to_seconds(now_ns() - c.start));
  // Open loop: due and not yet written.
  for (const Slot& s : slots_)
    for (const sim::Time due : s.pending) ages[threads_[s.thread].group].record(sim::to_seconds(now_ns() - due));
  for (std::uint32_t gi = 0; gi < groups_.size(); ++gi) out.push_back(groups_[gi].result(duration_, ages[gi]));
  return out;
}

}  // namespace sgengine
