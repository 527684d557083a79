// Test helpers: a temporary document root, a clerk-serve child process, and
// a raw-socket HTTP client (hostile inputs need raw bytes, not a library).
#pragma once

#include <signal.h>
#include <sys/types.h>

#include <functional>
#include <future>
#include <map>
#include <string>
#include <vector>

namespace clerk::serve::test {

// root/ with small.txt, big.bin (6 MiB), empty.txt, sub/inner.txt, a FIFO,
// link -> ../outside/secret.txt, dirlink -> ../outside; outside/secret.txt
// holds kSecret, which no response may ever contain.
struct TempTree {
  TempTree();
  ~TempTree();
  std::string base, root, outside;
  std::string small, big, inner;
};
inline constexpr const char* kSecret = "SECRET-OUTSIDE-THE-ROOT";

class ServerProcess {
 public:
  // Starts clerk-serve --root ROOT --listen 127.0.0.1:0 --port-file ... ARGS
  // and waits for the port and for `workers` worker processes.
  // without_dac_override: run as root would without CAP_DAC_OVERRIDE and
  // CAP_DAC_READ_SEARCH (dropped from the bounding set before exec), so that
  // a file of mode 000 is EACCES to the server as to any other user.
  ServerProcess(const TempTree& tree, std::vector<std::string> args, int workers, int fd_limit = 0,
                bool without_dac_override = false);
  ~ServerProcess();
  int port() const { return port_; }
  pid_t pid() const { return pid_; }
  std::vector<pid_t> worker_pids() const;  // /proc/<master>/task/<master>/children
  bool workers_alive(const std::vector<pid_t>& pids) const;
  std::string log() const;  // its stderr so far
  const std::string& port_file() const { return port_file_; }
  // `signal` (SIGTERM), wait; the master's exit status (-1: did not exit normally).
  int stop(int signal = SIGTERM);

 private:
  std::string port_file_;
  std::string log_path_;
  pid_t pid_ = -1;
  int port_ = 0;
};

struct Response {
  int status = 0;  // 0: no (complete) response
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string header(const std::string& name) const {
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
  }
};

class Client {
 public:
  explicit Client(int port);
  ~Client();
  Client(const Client&) = delete;
  Client& operator=(const Client&) = delete;
  int fd() const { return fd_; }
  bool send(const std::string& bytes);
  void shutdown_write();
  // One response; head_only: no body follows (HEAD).
  Response read_response(bool head_only = false);
  // Everything until end of stream or a reset (10 s safety limit).
  std::string read_to_end();
  bool at_end();  // the server closed (EOF or reset) with nothing more to read
  void reset();   // close with SO_LINGER 0: an RST, as from a vanished client

 private:
  bool fill();
  int fd_ = -1;
  std::string pending_;
};

// A response to `request` on a fresh connection whose write side is then
// closed; the whole byte stream the server sent until it closed.
std::string round_trip(int port, const std::string& request);
int status_of(const std::string& raw);  // 0 if not an HTTP response

std::string get_request(const std::string& target, const std::string& extra = "");

// This process's stderr (fd 2) goes to `path` while the capture lives: the
// log lines of a pool or connection run in the test process itself.
class StderrCapture {
 public:
  explicit StderrCapture(std::string path);
  ~StderrCapture();
  StderrCapture(const StderrCapture&) = delete;
  StderrCapture& operator=(const StderrCapture&) = delete;
  std::string text() const;

 private:
  std::string path_;
  int saved_ = -1;
};

// Pool tasks that wait until the gate opens: a thread held for as long as the
// test wants, with no timing. Opened on destruction too, so that a failed
// check cannot leave a pool's stop() joining a thread that never returns;
// declare it after the pool.
class Gate {
 public:
  ~Gate() { open(); }
  std::function<void()> task() const {
    return [opened = opened_] { opened.wait(); };
  }
  void open() {
    if (!is_open_) promise_.set_value();
    is_open_ = true;
  }

 private:
  std::promise<void> promise_;
  std::shared_future<void> opened_ = promise_.get_future().share();
  bool is_open_ = false;
};

}  // namespace clerk::serve::test
