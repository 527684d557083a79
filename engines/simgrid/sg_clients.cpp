#include "engines/simgrid/sg_clients.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <simgrid/s4u/Actor.hpp>

#include "engines/simgrid/sg_host.h"

namespace sgengine {

namespace sg4 = simgrid::s4u;

namespace {
constexpr std::uint64_t kMaxThreadRate = 10000000;     // wrk's MAX_THREAD_RATE_S
constexpr std::uint64_t kStreamThread = 0x7772'6b00;  // the stream ids models::Wrk uses, so
                                                      // both engines draw the same files
}  // namespace

SgClients::SgClients(const Platform& platform, std::vector<models::WrkGroupSpec> groups, double one_way_s,
                     sim::Time duration, const sim::RandomStreams& streams, std::uint32_t files,
                     std::vector<std::uint64_t> response_bytes, const models::CpuCosts& costs)
    : platform_(platform),
      one_way_(sim::from_seconds_ceil(one_way_s)),
      duration_(duration),
      files_(files),
      response_bytes_(std::move(response_bytes)),
      costs_(costs) {
  for (auto& spec : groups) {
    const auto timeout_us = static_cast<std::uint64_t>(std::llround(spec.timeout_s * 1e6));
    groups_.push_back(Group{spec, models::WrkHistogram(timeout_us), models::WrkHistogram(kMaxThreadRate), {}, 0, 0, 0,
                            {}, {}, 0, {}, {}, {}});
  }
  for (std::uint32_t g = 0; g < groups_.size(); ++g)
    for (std::uint32_t t = 0; t < groups_[g].spec.threads; ++t) {
      Thread th;
      th.group = g;
      th.rng = streams.stream(kStreamThread + g, t);
      th.on_host = groups_[g].spec.on_server_host;
      threads_.push_back(std::move(th));
    }
}

void SgClients::start(models::ServerSide& server) {
  server_ = &server;
  running_ = true;
  for (std::uint32_t t = 0; t < threads_.size(); ++t) {
    if (threads_[t].on_host) {
      threads_[t].wake = &thread_wakes_.emplace_back();
      sg4::Actor::create("wrk-thread", platform_.server, [this, t] { host_thread(t); })->daemonize();
    }
    const Group& g = groups_[threads_[t].group];
    const std::uint32_t per_thread = g.spec.connections / g.spec.threads;
    for (std::uint32_t i = 0; i < per_thread; ++i) {
      const auto s = static_cast<std::uint32_t>(sockets_.size());
      sockets_.emplace_back();
      sg4::Actor::create("wrk", platform_.clients, [this, s, t, i] { socket(s, t, i); })->daemonize();
    }
  }
}

void SgClients::sleep_ns(sim::Time d) {
  sg4::this_actor::sleep_until(sim::to_seconds(now_ns() + d));
  ++resumptions();
}

void SgClients::sleep_one_way() { sleep_ns(one_way_); }

void SgClients::host_thread(std::uint32_t t) {
  Thread& th = threads_[t];
  for (;;) {
    while (th.work.empty()) th.wake->wait();
    const Work w = th.work.front();
    th.work.pop_front();
    use_cpu(w.cpu_s);
    w.done->notify();
  }
}

void SgClients::on_thread(std::uint32_t t, double cpu_s, Wakeup& wake) {
  threads_[t].work.push_back(Work{cpu_s, &wake});
  threads_[t].wake->notify();
  wake.wait();
}

void SgClients::send_request(std::uint32_t id) {
  Conn& c = conns_[id];
  Group& g = groups_[c.group];
  Thread& t = threads_[c.thread];
  c.file = g.spec.fixed_file >= 0 ? static_cast<std::uint32_t>(g.spec.fixed_file)
                                  : static_cast<std::uint32_t>(t.rng.below(files_));
  c.start = now_ns();
  c.busy = true;
  ++g.issued;
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
      sleep_ns(sim::from_seconds_ceil(connect_delay));
    connect_delay = costs_.client_connect;
    if (!running_) return;
    const auto id = static_cast<std::uint32_t>(conns_.size());
    conns_.push_back(Conn{group, thread, s});
    ++groups_[group].open;
    Conn& c = conns_[id];
    // Three-way handshake: connect() returns after one round trip and wrk
    // writes its request at once; the server's accept queue gets the
    // connection with the final ACK, together with the request.
    const sim::Time opened = now_ns();
    sg4::this_actor::sleep_until(sim::to_seconds(opened + 2 * one_way_));
    ++resumptions();
    const bool requested = running_ && c.alive;
    if (requested) send_request(id);
    sg4::this_actor::sleep_until(sim::to_seconds(opened + 3 * one_way_));
    ++resumptions();
    server_->connection_arrived(id, group);
    if (requested && c.alive) server_->request_arrived(id, c.file);
    bool reconnect = false;
    while (!reconnect) {
      while (c.first_byte_at < 0 && c.delivered_at < 0 && !c.closed) wake.wait();
      if (c.first_byte_at >= 0) {
        // The response's header reaches the client: time to first byte.
        sg4::this_actor::sleep_until(sim::to_seconds(c.first_byte_at + one_way_));
        ++resumptions();
        c.first_byte_at = -1;
        if (!c.busy || !c.alive || !running_) continue;
        Group& g = groups_[group];
        const double ttfb = sim::to_seconds(now_ns() - c.start);
        g.ttfb.record(ttfb);
        record_window(g.ttfb_windows, ttfb);
        continue;
      }
      if (c.closed) {
        // The server dropped the connection: wrk counts a read error and reconnects.
        sleep_one_way();
        ++groups_[group].errors.read;
        --groups_[group].open;
        if (!running_) return;
        reconnect = true;
        break;
      }
      // The response's last byte reaches the client.
      sg4::this_actor::sleep_until(sim::to_seconds(c.delivered_at + one_way_));
      ++resumptions();
      c.delivered_at = -1;
      if (on_host)
        on_thread(thread, costs_.client_request + costs_.client_byte * static_cast<double>(response_bytes_[c.file]),
                  wake);
      if (!c.busy || !c.alive || !running_) return;  // after the stop wrk reads no more
      Group& g = groups_[group];
      c.busy = false;
      const sim::Time latency = now_ns() - c.start;
      ++g.complete;
      ++threads_[thread].requests;
      g.bytes += response_bytes_[c.file];
      g.raw.record(sim::to_seconds(latency));
      record_window(g.latency_windows, sim::to_seconds(latency));
      if (!g.latency.record(static_cast<std::uint64_t>(latency / 1000))) ++g.errors.timeout;
      if (c.closing) {
        // Connection: close: wrk reconnects (not an error).
        c.alive = false;
        --g.open;
        reconnect = true;
        break;
      }
      send_request(id);
      sleep_one_way();
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

void SgClients::on_first_byte(std::uint32_t conn) {
  Conn& c = conns_[conn];
  c.first_byte_at = now_ns();
  sockets_[c.socket].notify();
}

void SgClients::record_window(std::vector<sim::LatencyStats>& windows, double seconds) {
  const auto second = static_cast<std::size_t>(now_ns() / sim::seconds(1));
  if (windows.size() <= second) windows.resize(second + 1);
  windows[second].record(seconds);
}

double SgClients::peak_p99(const std::vector<sim::LatencyStats>& windows) {
  double peak = 0;
  for (const auto& w : windows)
    if (w.count() > 0) peak = std::max(peak, w.percentile(99));
  return peak;
}

void SgClients::on_connection_closed(std::uint32_t conn, const std::string& reason) {
  Conn& c = conns_[conn];
  if (c.busy) ++groups_[c.group].failed[reason];
  c.busy = false;
  c.alive = false;
  c.closed = true;
  sockets_[c.socket].notify();
}

void SgClients::tick() {
  const sim::Time now = now_ns();
  for (Thread& t : threads_) {
    if (t.requests == 0) continue;
    const std::int64_t elapsed_ms = (now - t.last_record) / sim::milliseconds(1);
    const auto rate =
        static_cast<std::uint64_t>((static_cast<double>(t.requests) / static_cast<double>(elapsed_ms)) * 1000);
    groups_[t.group].rates.record(rate);
    t.requests = 0;
    t.last_record = now;
  }
}

// wrk's end-of-run figures and report, as models::Wrk::finish gives them.
std::vector<models::WrkResult> SgClients::finish() {
  std::vector<models::WrkResult> out;
  const double runtime_s = sim::to_seconds(duration_);
  const auto runtime_us = static_cast<std::uint64_t>(duration_ / 1000);
  std::vector<std::uint64_t> in_flight(groups_.size(), 0);
  for (const Conn& c : conns_)
    if (c.busy && c.alive) ++in_flight[c.group];
  for (std::uint32_t gi = 0; gi < groups_.size(); ++gi) {
    Group& g = groups_[gi];
    models::WrkResult r;
    r.spec = g.spec;
    r.connections_open = g.spec.threads * (g.spec.connections / g.spec.threads);
    r.runtime_s = runtime_s;
    r.issued = g.issued;
    r.complete = g.complete;
    r.in_flight = in_flight[gi];
    r.failed = g.failed;
    r.bytes = g.bytes;
    r.errors = g.errors;
    r.raw = g.raw;
    r.ttfb = g.ttfb;
    r.ttfb_peak_p99 = peak_p99(g.ttfb_windows);
    r.latency_peak_p99 = peak_p99(g.latency_windows);
    const std::uint64_t per_connection = g.complete / g.spec.connections;
    if (per_connection > 0) g.latency.correct(static_cast<std::int64_t>(runtime_us / per_connection));
    const long double mean = g.latency.mean();
    const long double stdev = g.latency.stdev(mean);
    r.latency_mean = static_cast<double>(mean) * 1e-6;
    r.latency_stdev = static_cast<double>(stdev) * 1e-6;
    r.latency_max = static_cast<double>(g.latency.max()) * 1e-6;
    r.latency_within_stdev = g.latency.count() ? static_cast<double>(g.latency.within_stdev(mean, stdev, 1)) / 100 : 0;
    r.latency_p50 = static_cast<double>(g.latency.percentile(50)) * 1e-6;
    r.latency_p75 = static_cast<double>(g.latency.percentile(75)) * 1e-6;
    r.latency_p90 = static_cast<double>(g.latency.percentile(90)) * 1e-6;
    r.latency_p99 = static_cast<double>(g.latency.percentile(99)) * 1e-6;
    const long double rmean = g.rates.mean();
    const long double rstdev = g.rates.stdev(rmean);
    r.rate_mean = static_cast<double>(rmean);
    r.rate_stdev = static_cast<double>(rstdev);
    r.rate_max = static_cast<double>(g.rates.max());
    r.rate_within_stdev = g.rates.count() ? static_cast<double>(g.rates.within_stdev(rmean, rstdev, 1)) / 100 : 0;

    using models::wrk_column;
    std::string s;
    s += fmt::format("Running {} test @ {}\n", models::wrk_format_time_s(runtime_s), g.spec.url);
    s += fmt::format("  {} threads and {} connections\n", g.spec.threads, g.spec.connections);
    s += fmt::format("  Thread Stats{:>6}{:>11}{:>8}{:>12}\n", "Avg", "Stdev", "Max", "+/- Stdev");
    s += fmt::format("    {:<10}{}{}{}{:8.2f}%\n", "Latency", wrk_column(models::wrk_format_time_us(mean), 8),
                     wrk_column(models::wrk_format_time_us(stdev), 10),
                     wrk_column(models::wrk_format_time_us(g.latency.max()), 9), r.latency_within_stdev * 100);
    s += fmt::format("    {:<10}{}{}{}{:8.2f}%\n", "Req/Sec", wrk_column(models::wrk_format_metric(rmean), 8),
                     wrk_column(models::wrk_format_metric(rstdev), 10),
                     wrk_column(models::wrk_format_metric(g.rates.max()), 9), r.rate_within_stdev * 100);
    s += fmt::format("  {} requests in {}, {}B read\n", g.complete, models::wrk_format_time_us(runtime_us),
                     models::wrk_format_binary(g.bytes));
    if (g.errors.connect || g.errors.read || g.errors.write || g.errors.timeout)
      s += fmt::format("  Socket errors: connect {}, read {}, write {}, timeout {}\n", g.errors.connect,
                       g.errors.read, g.errors.write, g.errors.timeout);
    if (g.errors.status) s += fmt::format("  Non-2xx or 3xx responses: {}\n", g.errors.status);
    s += fmt::format("Requests/sec: {:9.2f}\n", static_cast<double>(g.complete) / runtime_s);
    s += fmt::format("Transfer/sec: {:>10}B\n", models::wrk_format_binary(static_cast<long double>(g.bytes) / runtime_s));
    r.report = std::move(s);
    out.push_back(std::move(r));
  }
  return out;
}

}  // namespace sgengine
