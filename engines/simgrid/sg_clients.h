// wrk 4.0 on SimGrid: the counterpart of models::Wrk, with one actor per
// client socket. The actor connects, writes a request, waits for the whole
// response, records the latency and writes the next (closed loop); after a
// Connection: close, or a connection the server drops (a read error), it
// connects again. Each wrk thread opens its connections one after another,
// one connect() cost apart. A wrk thread that runs on the server's host is an
// actor there too, spending that host's CPU on every connect and response,
// one item at a time. Statistics, streams and the report are those of the
// native wrk model. The sockets' timed waits end in the order they began, as
// on the native event heap (sg_alarm_clock.h): requests written at one
// instant draw their files from their thread's stream in connection order.
//
// An open-loop group (`rate`, as wrk2 does; models::Wrk) keeps one schedule
// per connection, its first request spread over one interval and the next
// one interval later, or an exponential gap drawn from the thread's stream
// for `arrival = "poisson"`, as the native engine draws it. Each schedule is
// an actor that waits on the alarm clock for its next due time: a request
// that falls due goes out at once on its connection if that is connected and
// idle, else waits in the schedule, and the connection sends it when its
// response is in (latency counts from when it was due). A connection that is
// lost and opened again serves the same schedule.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "engines/simgrid/sg_alarm_clock.h"
#include "engines/simgrid/sg_clock.h"
#include "engines/simgrid/sg_platform.h"
#include "models/clients/response_reader.h"
#include "models/clients/wrk.h"
#include "models/clients/wrk_group.h"
#include "models/net/endpoints.h"
#include "sim/latency_stats.h"
#include "sim/random.h"

namespace sgengine {

class SgClients final : public models::ClientSide {
 public:
  SgClients(const Platform& platform, std::vector<models::WrkGroupSpec> groups, double one_way_s,
            sim::Time duration, const sim::RandomStreams& streams, std::vector<models::FilePicker> pickers,
            std::vector<std::uint64_t> response_bytes, const models::CpuCosts& costs);

  void start(models::ServerSide& server);
  void stop() { running_ = false; }
  // The measured window begins now (models::Wrk::begin_window).
  void begin_window();
  // wrk's record_rate() for every thread; called every 100 ms.
  void tick();
  std::vector<models::WrkResult> finish();

  void on_response_delivered(std::uint32_t conn, bool closes) override;
  void on_connection_closed(std::uint32_t conn, const std::string& reason) override;
  void on_first_byte(std::uint32_t conn) override;
  void on_data_sent(std::uint32_t conn, std::uint64_t bytes) override;
  bool sender_runs_receive(std::uint32_t conn, std::uint64_t bytes) override;

 private:
  struct Conn {
    std::uint32_t group;
    std::uint32_t thread;
    std::uint32_t socket;  // the actor that owns it
    std::uint32_t file = 0;
    sim::Time start = 0;
    bool busy = false;
    bool alive = true;
    // What the server did, and when (its clock): the socket actor sees
    // each of them one way later.
    sim::Time first_byte_at = -1;
    sim::Time delivered_at = -1;
    bool closed = false;
    sim::Time closed_at = -1;  // when the server closed it: wrk reads the close one way later
    models::ClosedRequest closed_request = models::ClosedRequest::kNone;  // what that close ends
    bool closing = false;  // the last response said Connection: close
    // A same-host thread reads the response as it arrives: the body chunks
    // the server sent (its clock, bytes), and what the thread has read.
    std::deque<std::pair<sim::Time, std::uint64_t>> chunks{};
    models::ResponseReader reader{};
    bool read_done = false;  // the turn that took the last byte is over
    bool connected = false;  // its handshake's round trip is over
    std::uint32_t slot = UINT32_MAX;  // open loop: the schedule this connection serves
    sim::Time sent_at = -1;  // open loop: a request its schedule wrote, not yet at the server
  };
  // An open-loop connection's schedule (models::Wrk's Slot); it outlives reconnections.
  struct Slot {
    std::uint32_t thread;
    std::uint32_t conn = UINT32_MAX;
    models::PendingRequests pending{};  // due and not yet sent
    AlarmClock::Sleeper alarm = 0;
  };
  struct Work {            // for a thread on the server's host
    double cpu_s;
    Wakeup* done;
    bool* finished = nullptr;         // set before `done` is notified: a notify that
                                      // comes before the wait is not lost
    std::uint32_t conn = UINT32_MAX;  // a turn reading this connection (cpu_s and done unused)
  };
  struct Thread {
    std::uint32_t group = 0;
    models::WrkThreadRate rate;
    sim::RandomStream rng;
    bool on_host = false;
    std::deque<Work> work;
    Wakeup* wake = nullptr;
    std::uint32_t reading = UINT32_MAX;  // the connection whose turn it is in (its socket held)
  };
  // Actor bodies: a socket (the i-th of its thread), a wrk thread on the server host.
  void socket(std::uint32_t socket, std::uint32_t thread, std::uint32_t i);
  void host_thread(std::uint32_t thread);
  // Spends `cpu_s` of the thread's CPU on the server host, in its turn.
  void on_thread(std::uint32_t thread, double cpu_s, Wakeup& wake);
  // The connection is readable: its thread takes a turn on it (models::ResponseReader).
  void readable(std::uint32_t conn);
  void read_turn(std::uint32_t conn);
  // `due`: when an open-loop request fell due (its latency counts from then); else now.
  void send_request(std::uint32_t conn, sim::Time due);
  // Open loop: the actor of schedule `slot`, whose first request falls due at `first`.
  void schedule(std::uint32_t slot, sim::Time first);
  // Open loop: binds a new connection to its thread's first schedule without a live one.
  void bind_slot(std::uint32_t conn);
  // Open loop: the next request waiting in the connection's schedule, if any, goes out now.
  bool send_pending(std::uint32_t conn);
  // The interval between one connection's requests in an open-loop group.
  double interval_s(const models::WrkGroup& g) const;
  // Timed waits of socket actor `s`, in the native engine's order (sg_alarm_clock.h).
  void sleep_until(std::uint32_t s, sim::Time at);
  void sleep_ns(std::uint32_t s, sim::Time d);
  void sleep_one_way(std::uint32_t s);

  const Platform& platform_;
  models::ServerSide* server_ = nullptr;
  sim::Time one_way_;
  sim::Time duration_;
  std::vector<models::FilePicker> pickers_;  // per group (models/clients/popularity.h)
  std::vector<std::uint64_t> response_bytes_;  // header and file, per file
  models::CpuCosts costs_;
  std::vector<models::WrkGroup> groups_;
  std::vector<Thread> threads_;
  std::deque<Conn> conns_;
  std::vector<Slot> slots_;
  std::deque<Wakeup> sockets_;        // a socket actor's wait for the server
  std::vector<AlarmClock::Sleeper> socket_alarms_;  // its timed waits
  AlarmClock alarms_;
  std::deque<Wakeup> thread_wakes_;
  bool running_ = false;
};

}  // namespace sgengine
