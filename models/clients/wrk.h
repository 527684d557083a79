// wrk 4.0 as a load generator (wrk.c): `threads` threads, each with
// connections/threads connections (rounded down). Closed loop: one request
// in flight per connection, the next written once the previous response is
// complete. Latency runs from writing the request to reading the whole
// response, as wrk.c times it: response_complete() records the latency and
// only registers the socket as writable (aeCreateFileEvent AE_WRITABLE);
// socket_writeable(), in a later turn of the thread's ae loop, sets
// c->start and writes. So the next request leaves after the loop has served
// the connections that were ready before it (epoll's ready list is in the
// order readiness came), and that wait is in neither request's latency. A
// thread on the server's own host queues the write behind them (a write
// costs the loop no time of its own: client_request, measured per request,
// is charged to the turn that completes the response); a thread elsewhere
// has no CPU in the model and writes at once. Left out: the first request
// on a new connection (socket_connected() registers it the same way) and a
// trace group's requests go out at once. A random-file group picks a file per request
// by its popularity (popularity.h; uniformly, as the reference's Lua script
// did, unless the scenario says otherwise).
//
// Every request is accounted for: completed, failed with a reason, or still
// in flight when the run ends.
//
// Each thread opens its connections one after another (its connect loop), so
// they reach the server spread over time. A response with Connection: close
// makes wrk reconnect; a connection the server drops is a read error, then a
// reconnect. A group running on the server's own host is a set of
// single-threaded loops that need CPU time there for every connect and every
// response, competing with the server.
//
// Such a thread reads a response as it arrives (response_reader.h): each
// chunk the server sends (sendfile_max_chunk) costs the thread client_byte
// per byte when it arrives, interleaved with its other connections, so only
// the last chunk and the parse lie after the response's last byte. A chunk
// reaches the client one network delay after it went into the socket: the
// loopback a same-host client uses has no wire to wait for (its cost is the
// CPU per byte on both sides). The receive buffer is taken to hold whatever
// the thread has not read yet (tcp_rmem's autotuned maximum is 6 MiB by
// default, against responses of a few MiB), so the client's reading does
// not hold back the server's sendfile().
//
// A group of internet clients (its spec's network.internet) draws each
// connection's RTT and bottleneck rate when the connection opens
// (network_path.h); the connection's one-way delay is half its RTT, in place
// of the LAN's, for the handshake, the request and the response, and the
// server's socket sends to it with slow start (ClientSide::path). Such a
// group also records NGINX's $request_time for its requests, to report
// beside the latency the client saw.
//
// A trace group (trace.h) replays an access log from the measured window's
// start: each line falls due at its time, goes out on the group's least
// recently used idle connection (sim/lru_idle.h; else waits, in log order,
// for one), and its latency counts from when it was due. During a warm-up
// it sends nothing. Taking the connection idle longest spreads a light load
// over every connection, as a log's many clients, each on its own
// keep-alive connection, spread over NGINX's workers, without inventing
// head-of-line blocking; mapping each $remote_addr to a connection of its
// own would be the fuller model (not built). clerk-replay picks the same way.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "models/clients/log_format.h"
#include "models/clients/response_reader.h"
#include "models/clients/trace.h"
#include "models/clients/wrk_group.h"
#include "models/clients/wrk_result.h"
#include "models/net/endpoints.h"
#include "models/os/host.h"
#include "sim/engine.h"
#include "sim/latency_stats.h"
#include "sim/lru_idle.h"
#include "sim/random.h"

namespace models {

class Wrk final : public ClientSide, public sim::EventTarget, public sim::FairShareListener {
 public:
  // `host_cpu`: the server's CPUs, used by groups that run on the server host.
  Wrk(sim::Engine& engine, std::vector<WrkGroupSpec> groups, double one_way_s, sim::Time duration,
      const sim::RandomStreams& streams, std::vector<FilePicker> pickers, std::vector<std::uint64_t> response_bytes,
      const CpuCosts& costs, Cpu* host_cpu);

  // Connects to the server and opens every connection at time zero; the
  // measured window begins at once unless `warm_up` (then: begin_window()).
  void start(ServerSide& server, bool warm_up = false);
  // The measured window begins now and lasts the duration: every figure
  // starts again (WrkGroup::restart); requests in flight complete in it.
  void begin_window();
  // Results once the engine has run to the duration.
  std::vector<WrkResult> finish();
  std::uint64_t connections_opened() const { return conns_.size(); }
  // Read-only views for front ends (the visualizer), per group and per connection.
  std::size_t groups() const { return groups_.size(); }
  const WrkGroupSpec& group_spec(std::uint32_t g) const { return groups_[g].spec; }
  std::uint64_t group_complete(std::uint32_t g) const { return groups_[g].complete; }
  std::uint64_t group_bytes(std::uint32_t g) const { return groups_[g].bytes; }
  const sim::LatencyStats& group_latency(std::uint32_t g) const { return groups_[g].raw; }
  // Second `second` of group g as `clerk run --json` reports it (per_s).
  SecondFigures group_second(std::uint32_t g, std::size_t second) const {
    return second_figures(groups_[g].latency_windows, groups_[g].ttfb_windows, second);
  }
  // Where the group's responses' time went so far (request_stages.h); null
  // when the engine keeps no stage clocks.
  const StageAggregate* group_stages(std::uint32_t g) const {
    return groups_[g].stages_recorded ? &groups_[g].stages : nullptr;
  }
  // wrk's own microsecond histogram of the group, before the correction (applied at the end).
  const WrkHistogram& group_histogram(std::uint32_t g) const { return groups_[g].latency; }
  bool in_flight(std::uint32_t conn) const { return conns_[conn].busy && conns_[conn].alive; }
  std::uint32_t connection_group(std::uint32_t conn) const { return conns_[conn].group; }
  sim::Time request_started(std::uint32_t conn) const { return conns_[conn].start; }

  void on_response_delivered(std::uint32_t conn, bool closes) override;
  void on_connection_closed(std::uint32_t conn, const std::string& reason) override;
  void on_event(std::uint64_t arg) override;
  void on_share_milestone(std::uint32_t job, std::uint64_t tag, double remaining) override;
  void on_first_byte(std::uint32_t conn) override;
  void on_data_sent(std::uint32_t conn, std::uint64_t bytes) override;
  bool sender_runs_receive(std::uint32_t conn, std::uint64_t bytes) override;
  RequestStages* stages() override { return &stages_; }
  const TcpPath* path(std::uint32_t conn) const override {
    return conns_[conn].internet ? &conns_[conn].path : nullptr;
  }
  void on_request_logged(std::uint32_t conn, sim::Time request_time) override;
  const RequestStages& request_stages() const { return stages_; }

 private:
  enum Kind : std::uint64_t { kConnectAtServer = 1, kConnected, kRequestAtServer, kResponseAtClient, kClosedAtClient, kTick, kStop, kOpen, kDue, kFirstByteAtClient, kDataAtClient, kTraceDue };
  struct Conn {
    std::uint32_t group;
    std::uint32_t thread;
    std::uint32_t file = 0;
    sim::Time start = 0;
    bool busy = false;
    bool alive = true;
    bool closing = false;  // the last response said Connection: close
    bool connected = false;
    ClosedRequest closed = ClosedRequest::kNone;  // the server's close on its way: what it ends
    std::uint32_t slot = UINT32_MAX;  // open loop: the schedule this connection serves
    ResponseReader reader{};  // a same-host thread reading the response as it arrives
    sim::Time one_way = 0;    // to the server and back, each way
    bool internet = false;    // across the internet: `path` is its own
    TcpPath path{};
  };
  // A trace group's replay: the log being read, the line read ahead, the
  // requests due with no connection free, and the free connections.
  struct TraceFeed {
    std::uint32_t group;
    std::unique_ptr<LogFormat> format;
    sim::RandomStream sample_rng;
    std::unique_ptr<TraceReader> reader;
    TraceLine next;
    bool has_next = false;  // `next` read and not due yet
    std::uint64_t due = 0;  // lines that fell due (each one request)
    std::deque<std::pair<sim::Time, std::uint32_t>> waiting;  // due, file
    sim::LruIdle idle;  // its connections free to take a request
  };
  // An open-loop connection's schedule; it outlives reconnections.
  struct Slot {
    std::uint32_t conn;
    std::uint32_t thread;
    PendingRequests pending;  // due and not yet sent
  };
  std::uint32_t slot_thread(std::uint32_t s) const { return slots_[s].thread; }
  struct Work {
    bool connect;        // open a connection; otherwise read what arrived on `conn`
    std::uint32_t conn;
    bool last = false;   // the read takes the response's last byte
    bool write = false;  // instead: write `conn`'s next request (socket_writeable)
  };
  struct Thread {
    std::uint32_t group;
    WrkThreadRate rate;
    sim::RandomStream rng;
    std::deque<Work> work;  // for a thread on the server host: its loop's queue
    bool running = false;
    Work current{};
  };
  static std::uint64_t event(Kind k, std::uint64_t v) { return (std::uint64_t{k} << 56) | v; }
  void connect(std::uint32_t thread, sim::Time delay);
  void open_connection(std::uint32_t group, std::uint32_t thread);
  // `file`: the trace's (else the group's fixed file or a random one).
  void send_request(std::uint32_t conn, sim::Time due, std::int64_t file = -1);
  void start_trace(TraceFeed& feed);
  void trace_due(std::uint32_t feed);
  void trace_free(std::uint32_t conn);  // a trace connection can send
  bool is_trace(std::uint32_t group) const { return feed_of_[group] >= 0; }
  void read_response(std::uint32_t conn);
  // The next request after a response (closed loop, or an open loop's due one).
  void send_next(std::uint32_t conn);
  // A same-host thread's loop reaches a queued write.
  void write_queued(std::uint32_t conn);
  void enqueue(std::uint32_t thread, Work w);
  void readable(std::uint32_t conn);
  void run_next(std::uint32_t thread);
  bool on_host(std::uint32_t thread) const { return cpu_ && groups_[threads_[thread].group].spec.on_server_host; }

  sim::Engine& engine_;
  ServerSide* server_ = nullptr;
  sim::Time one_way_;
  sim::Time duration_;
  sim::Time end_ = 0;  // the measured window's end, once it has begun
  std::vector<FilePicker> pickers_;  // per group: which file a random request asks for
  std::vector<std::uint64_t> response_bytes_;  // per file
  CpuCosts costs_;
  Cpu* cpu_;
  std::vector<std::uint32_t> cpu_threads_;  // wrk's threads on the server host's CPUs
  std::vector<WrkGroup> groups_;
  std::vector<Thread> threads_;
  std::deque<Conn> conns_;
  std::vector<Slot> slots_;
  // Per group: the streams its connections' RTTs and rates are drawn from.
  std::vector<sim::RandomStream> rtt_rng_, rate_rng_;
  // Body chunks on their way to same-host clients, in the order sent: each
  // takes the same one-way delay, so they arrive in this order.
  std::deque<std::pair<std::uint32_t, std::uint64_t>> in_transit_;
  RequestStages stages_;
  bool running_ = false;
  std::vector<TraceFeed> feeds_;
  std::vector<std::int32_t> feed_of_;  // per group: its feed, or -1
  sim::Time window_start_ = 0;
};

}  // namespace models
