// clerk-replay: the real counterpart of a trace group (models/clients/trace.h),
// for `clerk realrun`. It reads a schedule the harness wrote from the access
// log exactly as the simulation replays it ("DUE_S PATH" per line, due
// times from the run's start, in order), keeps `--connections` keep-alive
// HTTP/1.1 connections to 127.0.0.1:PORT, and sends each GET when it falls
// due on the least recently used idle connection, else when one frees
// (first come, first served): an open loop, as wrk2 and the simulated group
// are, and the same choice of connection (sim/lru_idle.h), which spreads a
// light load over every connection as a log's many clients, each on its own
// keep-alive connection, spread over the server's workers (mapping each
// $remote_addr to a connection would be the fuller model, not built). A request's
// latency counts from when it fell due, so a queue in front of busy
// connections is in it (no coordinated omission).
//
// It stops issuing at --duration; responses still under way then are not
// counted, as wrk counts none after -d. A connection the server closes
// (Connection: close after keepalive_requests, or EOF) is opened again; a
// request lost with it is a read error (a write error when the send
// failed). A connect refused is a connect error, opened again at once, with
// no pause, as wrk's reconnect_socket() does (wrk.c; wrk differs only in
// first checking that the address takes a connection at all). A response
// slower than --timeout is counted and tallied as a timeout, its latency
// left out of the distribution, as wrk 4's
// response_complete() does (stats_record() refuses a value above the
// timeout; wrk.c): the request is neither dropped nor its connection closed.
// Its report is wrk's CLERK summary line (testbed/realrun/wrk_script.h),
// so realrun reads it as it reads wrk's, and a wrk-like text above it; the
// line adds due=, waiting= and in_flight= (requests that fell due, and of
// those the ones still queued or under way at the end), which account for
// every line: requests + read + write + waiting + in_flight == due.
//
// One thread, epoll, edge cases kept to what NGINX and clerk-serve send for
// a static file: a status line, headers with Content-Length, the body
// (response_head.h reads the head).
#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/input_file.h"
#include "common/number_text.h"
#include "common/shown_text.h"
#include "common/unique_fd.h"
#include "testbed/replay/response_head.h"
#include "sim/latency_stats.h"
#include "sim/lru_idle.h"

namespace {

using Clock = std::chrono::steady_clock;
using testbed::replay::HeadParse;
using testbed::replay::parse_response_head;

struct Options {
  std::uint16_t port = 0;
  std::uint32_t connections = 1;
  double duration_s = 1, timeout_s = 2;
  std::string schedule;
};

struct Request {
  double due_s = 0;
  std::string path;
};

struct Conn {
  int fd = -1;
  bool connected = false, busy = false;
  double due_s = 0;   // the request under way
  std::string out;    // bytes still to send
  std::string in;     // bytes read of the response
  bool have_head = false, close_after = false;
  std::uint64_t body_left = 0;
  int status = 0;
};

struct Totals {
  std::uint64_t requests = 0, bytes = 0, connect = 0, read = 0, write = 0, status = 0, timeout = 0;
  sim::LatencyStats latency;
};

constexpr const char* kUsage =
    "usage: clerk-replay --port P --connections N --duration S --timeout S --schedule FILE\n";

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr, "clerk-replay: %s\n%s", why, kUsage);
  std::exit(2);
}

// --help or -h: the usage and what each option is, on standard output, exit
// 0, as the other binaries' --help (probe 6: it was "missing value after
// --help", exit 2). A help that cannot be written is no success.
[[noreturn]] void help() {
  const int written = std::printf(
      "clerk-replay: replays a schedule (\"DUE_S PATH\" a line, in order) against 127.0.0.1:PORT, open loop,\n"
      "on keep-alive HTTP/1.1 connections, and prints wrk's CLERK summary line.\n%s"
      "  --port P         the server's port on 127.0.0.1 (1 to 65535; required)\n"
      "  --connections N  keep-alive connections (1 to 100000; default 1)\n"
      "  --duration S     seconds to issue requests for (above 0; default 1)\n"
      "  --timeout S      a response slower than this is a timeout (above 0; default 2)\n"
      "  --schedule FILE  the schedule, a regular file (required)\n"
      "  -h, --help       this text\n",
      kUsage);
  if (written < 0 || std::fflush(stdout) != 0) {
    std::fprintf(stderr, "clerk-replay: cannot write the help to standard output\n");
    std::exit(2);
  }
  std::exit(0);
}

// --port and --connections are whole numbers (digits only), --duration and
// --timeout finite decimal seconds above 0 (common/number_text.h, as the
// schedule's due times); a value otherwise is exit 2 naming its option.
Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--help" || a == "-h") help();
    if (i + 1 >= argc) usage(("missing value after " + common::shown_text(a)).c_str());
    const char* v = argv[++i];
    const std::string shown = a + " '" + common::shown_text(v) + "'";
    if (a == "--schedule") {
      o.schedule = v;
    } else if (a == "--port" || a == "--connections") {
      const std::optional<std::uint64_t> n = common::number_text<std::uint64_t>(v);
      const std::uint64_t most = a == "--port" ? 65535 : 100000;
      if (!n || *n < 1 || *n > most)
        usage((shown + ": not a whole number from 1 to " + std::to_string(most)).c_str());
      if (a == "--port") o.port = static_cast<std::uint16_t>(*n);
      else o.connections = static_cast<std::uint32_t>(*n);
    } else if (a == "--duration" || a == "--timeout") {
      const std::optional<double> d = common::number_text<double>(v);
      if (!d || !std::isfinite(*d) || *d <= 0) usage((shown + ": not a number of seconds above 0").c_str());
      (a == "--duration" ? o.duration_s : o.timeout_s) = *d;
    } else {
      usage(("unknown option " + common::shown_text(a)).c_str());
    }
  }
  if (!o.port || o.schedule.empty()) usage("--port and --schedule are needed");
  return o;
}

// The schedule, read a line at a time as the run goes (it may be far larger
// than memory should hold): opened without blocking and only as a regular
// file (common/input_file.h: a FIFO, a device such as /dev/zero or a folder
// is refused at once), through a fixed buffer, each line bounded. A line
// that is not "DUE_S PATH" (a due time of finite seconds >= 0, one space, a
// path from '/' with no space or control byte: it goes into the request
// line), longer than kMaxLineBytes, or a read that fails is exit 2 naming
// the file and the line, also mid-run.
class Schedule {
 public:
  // The harness writes a data set's path a line (testbed/realrun/
  // trace_schedule.cpp: a few dozen bytes); the bound is the access log's
  // own line bound (models/clients/trace.h: kMaxLineBytes, 64 KiB).
  static constexpr std::size_t kMaxLineBytes = 64 * 1024;

  explicit Schedule(std::string path) : path_(std::move(path)) {
    try {
      fd_ = common::open_input_file(path_);
    } catch (const common::InputFileError& e) {
      fail("the schedule '" + common::shown_text(path_) + "' " + e.what());
    }
  }

  // The next line as a request; false at the end of the file.
  bool next(Request& out) {
    if (!read_line()) return false;
    const std::size_t sp = line_.find(' ');
    const std::optional<double> due =
        sp == std::string::npos ? std::nullopt : common::number_text<double>(std::string_view(line_).substr(0, sp));
    if (!due || !std::isfinite(*due) || *due < 0)
      fail_line("'" + common::shown_text(line_.substr(0, 80)) +
                "' does not start with a due time (seconds >= 0) and a space (\"DUE_S PATH\")");
    const std::string_view path = std::string_view(line_).substr(sp + 1);
    const bool bad_byte = std::any_of(path.begin(), path.end(), [](char c) {
      return static_cast<unsigned char>(c) <= ' ' || c == '\x7f';
    });
    if (path.empty() || path.front() != '/' || bad_byte)
      fail_line("the path '" + common::shown_text(path.substr(0, 80)) +
                "' is not one from '/' with no space or control byte");
    out.due_s = *due;
    out.path.assign(path);
    return true;
  }

 private:
  static constexpr std::size_t kChunk = 64 * 1024;

  [[noreturn]] static void fail(const std::string& why) {
    std::fprintf(stderr, "clerk-replay: %s\n", why.c_str());
    std::exit(2);
  }
  [[noreturn]] void fail_line(const std::string& why) const {
    fail("the schedule '" + common::shown_text(path_) + "', line " + std::to_string(line_no_) + ": " + why);
  }

  // The next line, without its "\n", into line_: false at the end of the file.
  bool read_line() {
    line_.clear();
    bool any = false;
    ++line_no_;
    for (;;) {
      if (pos_ == buffer_.size()) {
        buffer_.resize(kChunk);
        std::size_t n = 0;
        try {
          n = common::read_input_some(fd_.get(), buffer_.data(), kChunk);
        } catch (const common::InputFileError& e) {
          fail_line(e.what());
        }
        buffer_.resize(n);
        pos_ = 0;
        if (n == 0) return any;
      }
      any = true;
      const char* begin = buffer_.data() + pos_;
      const std::size_t left = buffer_.size() - pos_;
      const auto* nl = static_cast<const char*>(std::memchr(begin, '\n', left));
      const std::size_t take = nl ? static_cast<std::size_t>(nl - begin) : left;
      if (line_.size() + take > kMaxLineBytes)
        fail_line("longer than " + std::to_string(kMaxLineBytes) + " bytes (a line is \"DUE_S PATH\")");
      line_.append(begin, take);
      pos_ += nl ? take + 1 : take;
      if (nl) return true;
    }
  }

  std::string path_;
  common::UniqueFd fd_;
  std::vector<char> buffer_;
  std::size_t pos_ = 0;
  std::string line_;
  std::uint64_t line_no_ = 0;
};

class Replay {
 public:
  // The schedule is opened (and its first line read) before any connection.
  explicit Replay(const Options& o) : o_(o), schedule_(o.schedule), conns_(o.connections) {
    read_ahead();
    ep_ = ::epoll_create1(EPOLL_CLOEXEC);
    if (ep_ < 0) usage("epoll_create1 failed");
    for (std::uint32_t i = 0; i < o.connections; ++i) open(i);
  }

  void run() {
    t0_ = Clock::now();
    std::vector<epoll_event> events(256);
    while (now() < o_.duration_s) {
      release_due();
      dispatch();
      const double next = std::min(o_.duration_s, have_next_ ? next_.due_s : o_.duration_s);
      // At most 100 ms, computed in double: a due time of 1e300 s never
      // reaches the int conversion (a NaN or infinity is refused as read).
      const double until_ms = std::ceil((next - now()) * 1000);
      const int wait_ms = until_ms >= 1 && until_ms <= 100 ? static_cast<int>(until_ms) : until_ms > 100 ? 100 : 0;
      const int n = ::epoll_wait(ep_, events.data(), static_cast<int>(events.size()), wait_ms);
      for (int i = 0; i < n; ++i) handle(events[static_cast<std::size_t>(i)].data.u32, events[static_cast<std::size_t>(i)].events);
    }
    elapsed_s_ = now();
    release_due();  // the lines due by the end, queued or not
  }

  // Every line that fell due is answered, lost with its connection (a read
  // or write error), queued or under way; false (and a message) otherwise.
  bool accounted() const {
    const std::uint64_t in_flight = busy_count();
    const std::uint64_t sum = t_.requests + t_.read + t_.write + waiting_.size() + in_flight;
    if (sum == due_count_) return true;
    std::fprintf(stderr, "clerk-replay: %llu requests + %llu read + %llu write errors + %zu waiting + %llu in flight "
                 "!= %zu due\n", static_cast<unsigned long long>(t_.requests), static_cast<unsigned long long>(t_.read),
                 static_cast<unsigned long long>(t_.write), waiting_.size(), static_cast<unsigned long long>(in_flight),
                 due_count_);
    return false;
  }

  void report() const {
    const sim::LatencyStats& l = t_.latency;
    auto us = [](double s) { return s * 1e6; };
    std::printf("Running %gs replay @ 127.0.0.1:%u\n  %u connections, %zu due, %zu waiting at the end\n",
                o_.duration_s, o_.port, o_.connections, due_count_, waiting_.size());
    std::printf("  Latency   %.2fus mean  %.2fus stdev  %.2fus max\n  Latency Distribution\n", us(l.mean()),
                us(l.stdev()), us(l.max()));
    for (double p : {50.0, 75.0, 90.0, 99.0}) std::printf("     %.0f%%  %.2fus\n", p, us(l.count() ? l.percentile(p) : 0));
    std::printf("  %llu requests in %.2fs, %llu bytes read\n", static_cast<unsigned long long>(t_.requests),
                elapsed_s_, static_cast<unsigned long long>(t_.bytes));
    std::printf("CLERK requests=%llu bytes=%llu duration_us=%.0f connect=%llu read=%llu write=%llu status=%llu "
                "timeout=%llu latency_mean_us=%.3f latency_stdev_us=%.3f latency_max_us=%.0f p50_us=%.0f p75_us=%.0f "
                "p90_us=%.0f p99_us=%.0f due=%zu waiting=%zu in_flight=%llu\n",
                static_cast<unsigned long long>(t_.requests), static_cast<unsigned long long>(t_.bytes),
                elapsed_s_ * 1e6, static_cast<unsigned long long>(t_.connect), static_cast<unsigned long long>(t_.read),
                static_cast<unsigned long long>(t_.write), static_cast<unsigned long long>(t_.status),
                static_cast<unsigned long long>(t_.timeout), us(l.mean()), us(l.stdev()), us(l.max()),
                us(l.count() ? l.percentile(50) : 0), us(l.count() ? l.percentile(75) : 0),
                us(l.count() ? l.percentile(90) : 0), us(l.count() ? l.percentile(99) : 0), due_count_, waiting_.size(),
                static_cast<unsigned long long>(busy_count()));
  }

 private:
  double now() const { return std::chrono::duration<double>(Clock::now() - t0_).count(); }

  std::uint64_t busy_count() const {
    std::uint64_t n = 0;
    for (const Conn& c : conns_) n += c.busy ? 1 : 0;
    return n;
  }

  void read_ahead() { have_next_ = schedule_.next(next_); }

  void release_due() {
    const double t = now();
    while (have_next_ && next_.due_s <= t) {
      waiting_.push_back(std::move(next_));
      ++due_count_;
      read_ahead();
    }
  }

  // Each request waiting goes out on the least recently used idle connection.
  void dispatch() {
    while (!waiting_.empty()) {
      const std::optional<std::uint32_t> i = idle_.take();
      if (!i) return;
      send(*i, waiting_.front());
      waiting_.pop_front();
    }
  }

  // Connection i is free for a request: the next one waiting, else the back of the idle line.
  void freed(std::uint32_t i) {
    if (waiting_.empty()) return idle_.push(i);
    send(i, waiting_.front());
    waiting_.pop_front();
  }

  void open(std::uint32_t i) {
    Conn& c = conns_[i];
    c = Conn{};
    idle_.remove(i);
    c.fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (c.fd < 0) return void(++t_.connect);
    const int one = 1;
    ::setsockopt(c.fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(o_.port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (::connect(c.fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) < 0 && errno != EINPROGRESS) {
      ::close(c.fd);
      c.fd = -1;
      return void(++t_.connect);
    }
    epoll_event e{};
    e.events = EPOLLIN | EPOLLOUT | EPOLLRDHUP | EPOLLET;  // edge-triggered: read and write until EAGAIN
    e.data.u32 = i;
    ::epoll_ctl(ep_, EPOLL_CTL_ADD, c.fd, &e);
  }

  void reopen(std::uint32_t i) {
    if (conns_[i].fd >= 0) ::close(conns_[i].fd);
    open(i);
  }

  void send(std::uint32_t i, const Request& r) {
    Conn& c = conns_[i];
    c.busy = true;
    c.due_s = r.due_s;
    c.out = "GET " + r.path + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
    flush(i);
  }

  void flush(std::uint32_t i) {
    Conn& c = conns_[i];
    while (!c.out.empty()) {
      const ssize_t n = ::write(c.fd, c.out.data(), c.out.size());
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) {
        ++t_.write;
        return reopen(i);
      }
      c.out.erase(0, static_cast<std::size_t>(n));
    }
  }

  void handle(std::uint32_t i, std::uint32_t events) {
    Conn& c = conns_[i];
    if (!c.connected && (events & EPOLLOUT)) {
      int err = 0;
      socklen_t len = sizeof err;
      ::getsockopt(c.fd, SOL_SOCKET, SO_ERROR, &err, &len);
      if (err) {
        ++t_.connect;
        return reopen(i);
      }
      c.connected = true;
      freed(i);
    }
    if (events & EPOLLOUT) flush(i);
    if (events & (EPOLLIN | EPOLLRDHUP | EPOLLHUP | EPOLLERR)) receive(i);
  }

  void receive(std::uint32_t i) {
    Conn& c = conns_[i];
    char buf[65536];
    for (;;) {
      const ssize_t n = ::read(c.fd, buf, sizeof buf);
      if (n < 0 && errno == EAGAIN) return;
      if (n <= 0) {  // EOF or error: a request under way is lost
        if (c.busy) ++t_.read;
        return reopen(i);
      }
      t_.bytes += static_cast<std::uint64_t>(n);
      if (!c.busy) continue;  // nothing asked: ignored
      if (c.have_head) {
        const std::uint64_t take = std::min<std::uint64_t>(c.body_left, static_cast<std::uint64_t>(n));
        c.body_left -= take;
      } else {
        c.in.append(buf, static_cast<std::size_t>(n));
        if (!head(c)) {
          ++t_.read;
          return reopen(i);
        }
      }
      if (c.have_head && c.body_left == 0) {
        complete(i);
        if (conns_[i].fd < 0 || !conns_[i].connected) return;
      }
    }
  }

  // Reads the response head once it is all in (response_head.h); false when
  // it is malformed.
  static bool head(Conn& c) {
    const HeadParse p = parse_response_head(c.in);
    if (p.state == HeadParse::State::kIncomplete) return true;
    if (p.state == HeadParse::State::kMalformed) return false;
    c.status = p.head.status;
    c.close_after = p.head.close;
    const std::uint64_t have = c.in.size() - p.head.head_bytes;
    c.body_left = p.head.body_bytes - std::min(have, p.head.body_bytes);
    c.have_head = true;
    c.in.clear();
    return true;
  }

  void complete(std::uint32_t i) {
    Conn& c = conns_[i];
    ++t_.requests;
    if (c.status < 200 || c.status > 399) ++t_.status;
    // wrk's rule: a latency in whole microseconds above the timeout's is a
    // timeout, not a sample (stats_record(): n >= timeout + 1 is refused).
    const double latency_s = now() - c.due_s;
    if (static_cast<std::uint64_t>(latency_s * 1e6) > timeout_us_) ++t_.timeout;
    else t_.latency.record(latency_s);
    c.busy = c.have_head = false;
    if (c.close_after) return reopen(i);
    freed(i);
  }

  Options o_;
  std::uint64_t timeout_us_ = static_cast<std::uint64_t>(std::llround(o_.timeout_s * 1e6));
  Schedule schedule_;
  std::vector<Conn> conns_;
  std::deque<Request> waiting_;
  sim::LruIdle idle_;  // connected connections with no request under way
  Request next_;
  bool have_next_ = false;
  std::size_t due_count_ = 0;
  int ep_ = -1;
  Clock::time_point t0_;
  double elapsed_s_ = 0;
  Totals t_;
};

}  // namespace

int main(int argc, char** argv) {
  Replay replay(parse(argc, argv));
  replay.run();
  replay.report();
  return replay.accounted() ? 0 : 1;
}
