#include "models/clients/wrk.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <stdexcept>

#include "common/bad_input.h"

namespace models {

namespace {
constexpr sim::Time kRecordInterval = sim::milliseconds(100);  // RECORD_INTERVAL_MS
}  // namespace

Wrk::Wrk(sim::Engine& engine, std::vector<WrkGroupSpec> groups, double one_way_s, sim::Time duration,
         const sim::RandomStreams& streams, std::vector<FilePicker> pickers, std::vector<std::uint64_t> response_bytes,
         const CpuCosts& costs, Cpu* host_cpu)
    : engine_(engine),
      one_way_(sim::from_seconds_ceil(one_way_s)),
      duration_(duration),
      pickers_(std::move(pickers)),
      response_bytes_(std::move(response_bytes)),
      costs_(costs),
      cpu_(host_cpu) {
  for (const auto& spec : groups) groups_.emplace_back(spec);
  for (WrkGroup& g : groups_) {
    g.stages_recorded = true;
    const std::uint64_t index = group_stream_index(g.spec.name);
    rtt_rng_.push_back(streams.stream(kRttStreams, index));
    rate_rng_.push_back(streams.stream(kRateStreams, index));
  }
  for (std::uint32_t g = 0; g < groups_.size(); ++g) {
    const TraceSpec& trace = groups_[g].spec.trace;
    feed_of_.push_back(trace.enabled() ? static_cast<std::int32_t>(feeds_.size()) : -1);
    if (!trace.enabled()) continue;
    std::string error;
    std::optional<LogFormat> format = LogFormat::compile(trace.log_format, error);
    if (!format) throw std::invalid_argument("clients." + groups_[g].spec.name + ".log_format " + error);
    feeds_.push_back(TraceFeed{g, std::make_unique<LogFormat>(std::move(*format)),
                               streams.stream(kTraceSampleStreams, group_stream_index(groups_[g].spec.name)),
                               nullptr, {}, false, 0, {}, {}});
  }
  for (std::uint32_t g = 0; g < groups_.size(); ++g)
    for (std::uint32_t t = 0; t < groups_[g].spec.threads; ++t) {
      Thread th;
      th.group = g;
      th.rng = streams.stream(kWrkThreadStreams + g, t);
      threads_.push_back(std::move(th));
      // Every wrk thread is one on the server host's CPUs, used only by on_host() groups.
      if (cpu_) cpu_threads_.push_back(cpu_->add_thread(kNoTask, static_cast<std::uint32_t>(threads_.size() - 1)));
    }
}

void Wrk::start(ServerSide& server, bool warm_up) {
  server_ = &server;
  running_ = true;
  for (std::uint32_t t = 0; t < threads_.size(); ++t) {
    const WrkGroup& g = groups_[threads_[t].group];
    const std::uint32_t per_thread = g.spec.connections / g.spec.threads;
    // The thread's connect loop: one connection after another.
    for (std::uint32_t i = 0; i < per_thread; ++i)
      connect(t, sim::from_seconds_ceil(costs_.client_connect * (i + 1)));
    if (g.spec.rate > 0) {
      // Open loop: one schedule per connection, their first requests spread
      // over one interval.
      const double open = g.spec.threads * per_thread;
      const double interval = open / g.spec.rate;
      for (std::uint32_t i = 0; i < per_thread; ++i) {
        const auto slot = static_cast<std::uint32_t>(slots_.size());
        slots_.push_back(Slot{UINT32_MAX, t, {}});
        const double offset = interval * (static_cast<double>(slot % static_cast<std::uint32_t>(open)) / open);
        engine_.schedule_in(sim::from_seconds_ceil(offset), this, event(kDue, slot));
      }
    }
    engine_.schedule_in(kRecordInterval, this, event(kTick, t));
  }
  if (!warm_up) begin_window();
}

void Wrk::begin_window() {
  const sim::Time now = engine_.now();
  std::vector<std::uint64_t> in_flight(groups_.size(), 0);
  for (const Conn& c : conns_)
    if (c.busy && c.alive) ++in_flight[c.group];
  for (const Slot& s : slots_) in_flight[threads_[s.thread].group] += s.pending.size();
  for (std::uint32_t g = 0; g < groups_.size(); ++g) groups_[g].restart(now, in_flight[g]);
  for (Conn& c : conns_)
    if (c.closed == ClosedRequest::kFailed) c.closed = ClosedRequest::kFailedBeforeWindow;
  for (Thread& t : threads_) t.rate = WrkThreadRate{0, now};
  end_ = now + duration_;
  window_start_ = now;
  engine_.schedule_at(end_, this, event(kStop, 0));
  for (TraceFeed& feed : feeds_) start_trace(feed);
}

void Wrk::start_trace(TraceFeed& feed) {
  feed.reader = std::make_unique<TraceReader>(groups_[feed.group].spec.trace, *feed.format, feed.sample_rng);
  feed.due = 0;  // as the group's issued (WrkGroup::restart)
  feed.has_next = feed.reader->next(feed.next);
  if (feed.has_next && feed.next.at_s < sim::to_seconds(duration_))
    engine_.schedule_at(window_start_ + sim::from_seconds_ceil(feed.next.at_s), this,
                        event(kTraceDue, static_cast<std::uint64_t>(&feed - feeds_.data())));
}

namespace {
// Bad input (exit 2), not a bug: the log was written to while the run read
// it, so the replay met a path the scan when the run was built had not.
[[noreturn]] void throw_log_changed(const WrkGroupSpec& spec, const std::string& path) {
  std::string where = spec.trace.key_file;
  if (spec.trace.key_line > 0) where += ":" + std::to_string(spec.trace.key_line);
  throw common::BadInput(where + ": key 'clients." + spec.name + ".trace': the access log '" + spec.trace.file +
                         "' changed during the run (it now asks for '" + path +
                         "', which it did not hold when the run was built): replay a log nothing writes to "
                         "while clerk reads it (a copy of it)");
}
}  // namespace

// The line read ahead falls due: sent on the least recently used idle
// connection, else it waits;
// the next line is read and scheduled (if it falls due before the end).
void Wrk::trace_due(std::uint32_t f) {
  TraceFeed& feed = feeds_[f];
  WrkGroup& g = groups_[feed.group];
  const sim::Time now = engine_.now();
  ++g.issued;
  ++feed.due;
  g.record_trace_due(now, feed.next.request_time_s);
  const auto& files = *g.spec.trace.files;
  const auto it = files.find(feed.next.path);
  // The scan and the replay read the same lines with the same draws: only a
  // log rewritten during the run can hold a path the plan did not see.
  if (it == files.end()) throw_log_changed(g.spec, feed.next.path);
  const std::uint32_t file = it->second;
  // The least recently used idle connection (sim/lru_idle.h); one closed
  // since it went idle is passed over.
  std::uint32_t conn = UINT32_MAX;
  while (const std::optional<std::uint32_t> c = feed.idle.take()) {
    const Conn& cc = conns_[*c];
    if (!cc.alive || !cc.connected || cc.busy) continue;
    conn = *c;
    break;
  }
  if (conn != UINT32_MAX) send_request(conn, now, file);
  else feed.waiting.emplace_back(now, file);
  feed.has_next = feed.reader->next(feed.next);
  if (feed.has_next && feed.next.at_s < sim::to_seconds(duration_))
    engine_.schedule_at(std::max(now, window_start_ + sim::from_seconds_ceil(feed.next.at_s)), this, event(kTraceDue, f));
}

void Wrk::trace_free(std::uint32_t id) {
  TraceFeed& feed = feeds_[static_cast<std::size_t>(feed_of_[conns_[id].group])];
  if (!feed.waiting.empty()) {
    const auto [due, file] = feed.waiting.front();
    feed.waiting.pop_front();
    send_request(id, due, file);
    return;
  }
  feed.idle.push(id);
}

void Wrk::connect(std::uint32_t thread, sim::Time delay) {
  if (on_host(thread)) {
    enqueue(thread, Work{true, 0});  // the thread's own CPU time paces it
    return;
  }
  engine_.schedule_in(delay, this, event(kOpen, thread));
}

void Wrk::enqueue(std::uint32_t t, Work w) {
  threads_[t].work.push_back(w);
  if (!threads_[t].running) run_next(t);
}

void Wrk::run_next(std::uint32_t t) {
  Thread& th = threads_[t];
  while (!th.work.empty()) {
    th.current = th.work.front();
    th.work.pop_front();
    if (th.current.write) {
      write_queued(th.current.conn);
      continue;
    }
    double cpu = costs_.client_connect;
    if (!th.current.connect) {
      const ResponseReader::Turn turn = conns_[th.current.conn].reader.start_turn(costs_);
      if (turn.cpu_s < 0) continue;  // nothing left to read on it
      cpu = turn.cpu_s;
      th.current.last = turn.last;
    }
    th.running = true;
    cpu_->run(cpu_threads_[t], cpu, this, t);
    return;
  }
  th.running = false;
}

void Wrk::readable(std::uint32_t id) {
  if (conns_[id].reader.queue_turn()) enqueue(conns_[id].thread, Work{false, id});
}

void Wrk::on_share_milestone(std::uint32_t, std::uint64_t tag, double) {
  const auto t = static_cast<std::uint32_t>(tag);
  const Work w = threads_[t].current;
  if (w.connect) {
    if (running_) open_connection(threads_[t].group, t);
  } else if (w.last) {
    read_response(w.conn);
  }
  run_next(t);
}

void Wrk::open_connection(std::uint32_t group, std::uint32_t thread) {
  const auto id = static_cast<std::uint32_t>(conns_.size());
  conns_.push_back(Conn{group, thread});
  Conn& c = conns_.back();
  c.one_way = one_way_;
  if (const NetworkPathSpec& net = groups_[group].spec.network; net.internet) {
    // This connection's path: its RTT (in whole nanoseconds, even, so that
    // each way is half of it) and its bottleneck rate.
    // A lognormal's far tail is bounded to what the loader accepts as one
    // value (limits.h: an RTT of 1e5 s at most, a rate of 1 kB/s at least),
    // so that every time stays inside the clock's range.
    c.internet = true;
    const double rtt_s = std::min(net.rtt_s.draw(rtt_rng_[group]), 1e5);
    c.one_way = std::max<sim::Time>(1, std::llround(rtt_s * 1e9 / 2));
    c.path.rtt = 2 * c.one_way;
    c.path.rate_Bps = std::max(net.rate_Bps.draw(rate_rng_[group]), 1e3);
  }
  if (groups_[group].spec.rate > 0) {
    // The first schedule of this thread's group without a live connection.
    for (std::uint32_t s = 0; s < slots_.size(); ++s) {
      Slot& slot = slots_[s];
      if (slot.conn != UINT32_MAX && conns_[slot.conn].alive) continue;
      if (slot_thread(s) != thread) continue;
      slot.conn = id;
      conns_[id].slot = s;
      break;
    }
  }
  ++groups_[group].open;
  // Three-way handshake: the client's connect() completes after one round
  // trip; the server's accept queue gets the connection when the final ACK
  // arrives, together with the request written right after connect.
  engine_.schedule_in(2 * c.one_way, this, event(kConnected, id));
  if (on_host(thread) && !c.internet) {
    // Over loopback the handshake completes inside the thread's connect():
    // the SYN, the SYN-ACK and the ACK are each processed in softirq on this
    // CPU as they are sent (loopback_xmit() -> netif_rx() -> the backlog,
    // run at local_bh_enable()), so tcp_child_process() queues the
    // connection and the listen socket's sk_data_ready wakes a worker from
    // this CPU, with WF_SYNC (sock_def_readable()).
    SyncWakeups sync(cpu_);
    server_->connection_arrived(id, group);
    return;
  }
  engine_.schedule_in(3 * c.one_way, this, event(kConnectAtServer, id));
}

void Wrk::send_request(std::uint32_t id, sim::Time due, std::int64_t file) {
  Conn& c = conns_[id];
  WrkGroup& g = groups_[c.group];
  Thread& t = threads_[c.thread];
  c.file = file >= 0                   ? static_cast<std::uint32_t>(file)
           : g.spec.fixed_file >= 0 ? static_cast<std::uint32_t>(g.spec.fixed_file)
                                    : pickers_[c.group].pick(t.rng);
  c.start = due;
  c.busy = true;
  c.reader.begin();
  stages_.begin(id, due, engine_.now());
  if (c.slot == UINT32_MAX && file < 0) ++g.issued;  // open loop and trace: counted when due
  engine_.schedule_in(c.one_way, this, event(kRequestAtServer, id));
}

void Wrk::on_response_delivered(std::uint32_t conn, bool closes) {
  conns_[conn].closing = closes;
  stages_.to(conn, Stage::kNetwork, engine_.now());
  engine_.schedule_in(conns_[conn].one_way, this, event(kResponseAtClient, conn));
}

void Wrk::read_response(std::uint32_t v) {
  Conn& c = conns_[v];
  if (!c.busy || !c.alive || !running_) return;  // after the stop wrk reads no more
  WrkGroup& g = groups_[c.group];
  c.busy = false;
  const sim::Time latency = engine_.now() - c.start;
  ++threads_[c.thread].rate.requests;
  g.record_response(engine_.now(), latency, response_bytes_[c.file]);
  if (is_trace(c.group)) g.record_trace(c.start, WrkGroup::TraceFigure::kLatency, sim::to_seconds(latency));
  if (const RequestStages::Clock* clock = stages_.end(v, engine_.now()))
    g.stages.record(engine_.now(), latency, clock->spent, clock->journey);
  if (c.closing) {
    // Connection: close: wrk reconnects (not an error).
    c.alive = false;
    --g.open;
    connect(c.thread, sim::from_seconds_ceil(costs_.client_connect));
    return;
  }
  if (is_trace(c.group)) {
    trace_free(v);
    return;
  }
  if (on_host(c.thread)) {
    // socket_writeable() runs when the loop comes round to this connection.
    threads_[c.thread].work.push_back(Work{false, v, false, true});
    return;
  }
  send_next(v);
}

void Wrk::write_queued(std::uint32_t v) {
  const Conn& c = conns_[v];
  if (!running_ || !c.alive || c.busy) return;  // stopped, or the server closed it meanwhile
  send_next(v);
}

void Wrk::send_next(std::uint32_t v) {
  Conn& c = conns_[v];
  if (c.slot == UINT32_MAX) {
    send_request(v, engine_.now());
    return;
  }
  Slot& slot = slots_[c.slot];
  if (!slot.pending.empty()) {
    const sim::Time due = slot.pending.front();
    slot.pending.pop_front();
    send_request(v, due);
  }
}

void Wrk::on_data_sent(std::uint32_t conn, std::uint64_t bytes) {
  if (!on_host(conns_[conn].thread)) return;  // a client elsewhere spends no CPU here
  conns_[conn].reader.on_way(bytes);
  in_transit_.emplace_back(conn, bytes);
  engine_.schedule_in(one_way_, this, event(kDataAtClient, conn));
}

// The reader decides (response_reader.h), told whether the thread is in a
// turn on this connection now.
bool Wrk::sender_runs_receive(std::uint32_t conn, std::uint64_t bytes) {
  Conn& c = conns_[conn];
  if (loopback_transmit_byte(costs_) <= 0 || !on_host(c.thread) || !c.busy) return false;
  const Thread& th = threads_[c.thread];
  return c.reader.sender_runs_receive(bytes, th.running && !th.current.connect && th.current.conn == conn);
}

void Wrk::on_request_logged(std::uint32_t conn, sim::Time request_time) {
  const Conn& c = conns_[conn];
  if ((!c.internet && !is_trace(c.group)) || !running_) return;
  groups_[c.group].request_time.record(sim::to_seconds(request_time));
  if (is_trace(c.group)) groups_[c.group].record_trace(c.start, WrkGroup::TraceFigure::kRequestTime, sim::to_seconds(request_time));
}

void Wrk::on_first_byte(std::uint32_t conn) {
  engine_.schedule_in(conns_[conn].one_way, this, event(kFirstByteAtClient, conn));
}

void Wrk::on_connection_closed(std::uint32_t conn, const std::string& reason) {
  Conn& c = conns_[conn];
  c.closed = groups_[c.group].server_closed(c.busy, reason);
  stages_.drop(conn);
  c.busy = false;
  c.alive = false;
  engine_.schedule_in(c.one_way, this, event(kClosedAtClient, conn));
}

void Wrk::on_event(std::uint64_t arg) {
  const auto kind = static_cast<Kind>(arg >> 56);
  const auto v = static_cast<std::uint32_t>(arg & ((std::uint64_t{1} << 56) - 1));
  switch (kind) {
    case kConnectAtServer:
      server_->connection_arrived(v, conns_[v].group);
      break;
    case kConnected: {
      Conn& c = conns_[v];
      c.connected = true;
      if (!running_ || !c.alive) break;
      if (is_trace(c.group)) {
        trace_free(v);
      } else if (c.slot == UINT32_MAX) {
        send_request(v, engine_.now());
      } else if (!slots_[c.slot].pending.empty()) {
        const sim::Time due = slots_[c.slot].pending.front();
        slots_[c.slot].pending.pop_front();
        send_request(v, due);
      }
      break;
    }
    case kDue: {
      // An open-loop request falls due: sent now if its connection is free.
      Slot& slot = slots_[v];
      const std::uint32_t t = slot_thread(v);
      WrkGroup& g = groups_[threads_[t].group];
      if (!running_) break;
      ++g.issued;
      const double open = g.spec.threads * (g.spec.connections / g.spec.threads);
      const double interval = open / g.spec.rate;
      const double gap = g.spec.poisson ? threads_[t].rng.exponential(interval) : interval;
      engine_.schedule_in(sim::from_seconds_ceil(gap), this, event(kDue, v));
      if (slot.conn != UINT32_MAX) {
        Conn& c = conns_[slot.conn];
        // Not ahead of older due requests: a same-host connection whose
        // write is queued (socket_writeable() to come) takes those first.
        if (c.alive && c.connected && !c.busy && slot.pending.empty()) {
          send_request(slot.conn, engine_.now());
          break;
        }
      }
      slot.pending.push_back(engine_.now());
      break;
    }
    case kFirstByteAtClient: {
      Conn& c = conns_[v];
      if (!c.busy || !c.alive || !running_) break;
      groups_[c.group].record_ttfb(engine_.now(), sim::to_seconds(engine_.now() - c.start));
      if (is_trace(c.group))
        groups_[c.group].record_trace(c.start, WrkGroup::TraceFigure::kTtfb, sim::to_seconds(engine_.now() - c.start));
      break;
    }
    case kRequestAtServer:
      if (conns_[v].alive) server_->request_arrived(v, conns_[v].file);
      break;
    case kDataAtClient: {
      const auto [id, bytes] = in_transit_.front();
      in_transit_.pop_front();
      Conn& c = conns_[id];
      if (!c.busy || !c.alive || !running_) break;
      c.reader.arrived(bytes);
      readable(id);
      break;
    }
    case kResponseAtClient: {
      stages_.to(v, Stage::kClient, engine_.now());
      Conn& c = conns_[v];
      if (!on_host(c.thread)) {
        read_response(v);
        break;
      }
      // The rest of the response (its last chunk, and the header) is in.
      c.reader.ended(response_bytes_[c.file]);
      readable(v);
      break;
    }
    case kOpen:
      if (running_) open_connection(threads_[v].group, v);
      break;
    case kClosedAtClient: {
      // wrk reads the close: a read error, and it reconnects (socket_connect
      // again). After the stop it reads no more: a failed request's close
      // still on its way stays unseen (WrkResult::failed_unseen).
      Conn& c = conns_[v];
      --groups_[c.group].open;
      if (!running_) break;
      groups_[c.group].close_read(c.closed);
      c.closed = ClosedRequest::kNone;
      connect(c.thread, sim::from_seconds_ceil(costs_.client_connect));
      break;
    }
    case kTick: {
      // record_rate(): requests since the last sample, per second.
      Thread& t = threads_[v];
      groups_[t.group].record_rate(engine_.now(), t.rate);
      if (running_ && (end_ == 0 || engine_.now() + kRecordInterval <= end_))
        engine_.schedule_in(kRecordInterval, this, event(kTick, v));
      break;
    }
    case kTraceDue:
      if (running_) trace_due(v);
      break;
    case kStop:
      running_ = false;
      break;
  }
}

std::vector<WrkResult> Wrk::finish() {
  // The requests still in flight, each at its age: written and unanswered,
  // and (open loop) due but not yet written.
  const sim::Time now = engine_.now();
  std::vector<WrkResult> out;
  std::vector<sim::LatencyStats> ages(groups_.size());
  for (const Conn& c : conns_)
    if (c.busy && c.alive) ages[c.group].record(sim::to_seconds(now - c.start));
  for (const Slot& s : slots_)
    for (const sim::Time due : s.pending) ages[threads_[s.thread].group].record(sim::to_seconds(now - due));
  for (const TraceFeed& feed : feeds_)
    for (const auto& [due, file] : feed.waiting) ages[feed.group].record(sim::to_seconds(now - due));
  for (std::uint32_t gi = 0; gi < groups_.size(); ++gi) out.push_back(groups_[gi].result(duration_, ages[gi]));
  for (const TraceFeed& feed : feeds_) {
    TraceResult& r = out[feed.group].trace;
    if (feed.reader) r.counts = feed.reader->counts();
    r.replayed = feed.due;
    // Read and not due: the line read ahead, and those the reader holds.
    r.not_due_at_end = feed.reader ? feed.reader->read_ahead() + (feed.has_next ? 1 : 0) : 0;
    r.log_finished = feed.reader && !feed.has_next;
    r.waiting = feed.waiting.size();
  }
  return out;
}

}  // namespace models
