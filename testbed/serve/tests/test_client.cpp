#include "test_client.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <signal.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <thread>
#include <utility>

#include "common/stale_state.h"

namespace clerk::serve::test {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

static void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

// A test run that is killed (SIGKILL, ctest's timeout) or dies on a signal
// runs no destructor, and its folder stays in /tmp. So each folder is named
// after its test process, clerk-serve-test-<pid>-XXXXXX, and a run's first
// TempTree removes those whose test process is gone, with any server still
// naming them (common/stale_state.h; each server leads its own process
// group, so that kill takes its workers and nothing else). A live concurrent
// run's folder is never touched; one of the older unnamed form
// (clerk-serve-test-XXXXXX) cannot be told apart and is left alone.
static void remove_stale_trees(const fs::path& temp) {
  static bool done = false;
  if (done) return;
  done = true;
  common::StaleScan stale{"clerk-serve-test-", {}, {temp.string()}};
  stale.only_ours = true;
  for (const std::string& line : common::remove_stale_state(stale))
    std::fprintf(stderr, "clerk-serve tests: %s\n", line.c_str());
}

TempTree::TempTree() {
  const fs::path temp = fs::temp_directory_path();
  remove_stale_trees(temp);
  std::string pattern = (temp / (common::own_state_name("clerk-serve-test") + "-XXXXXX")).string();
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp");
  base = pattern;
  root = base + "/root";
  outside = base + "/outside";
  fs::create_directories(root + "/sub");
  fs::create_directories(outside);
  small = "hello from clerk-serve\n";
  big.resize(6 * 1024 * 1024 + 123);
  std::uint32_t x = 12345;
  for (char& c : big) {
    x = x * 1664525u + 1013904223u;
    c = static_cast<char>(x >> 24);
  }
  inner = "inner file\n";
  write_text(root + "/small.txt", small);
  write_text(root + "/big.bin", big);
  write_text(root + "/empty.txt", "");
  write_text(root + "/sub/inner.txt", inner);
  write_text(outside + "/secret.txt", kSecret);
  write_text(base + "/x", kSecret);  // what "/../x" would name
  ::mkfifo((root + "/fifo").c_str(), 0644);
  fs::create_symlink("../outside/secret.txt", root + "/link");
  fs::create_symlink("../outside", root + "/dirlink");
  fs::create_symlink("/etc/passwd", root + "/passwd");
}

TempTree::~TempTree() {
  std::error_code ignored;
  fs::remove_all(base, ignored);
}

ServerProcess::ServerProcess(const TempTree& tree, std::vector<std::string> args, int workers, int fd_limit,
                             bool without_dac_override) {
  static int counter = 0;
  const std::string stem = tree.base + "/server" + std::to_string(++counter);
  port_file_ = stem + ".port";
  const std::string& port_file = port_file_;
  log_path_ = stem + ".log";
  std::vector<std::string> argv{CLERK_SERVE_BINARY, "--root", tree.root, "--listen", "127.0.0.1:0", "--port-file",
                                port_file, "--workers", std::to_string(workers)};
  argv.insert(argv.end(), args.begin(), args.end());
  const pid_t test_pid = ::getpid();
  pid_ = ::fork();
  if (pid_ == 0) {
    // The server goes with the test process, however that ends (it forks
    // from the main thread, which lives as long as the process): a killed
    // test leaves no server holding its port and folder. SIGTERM: the
    // master stops its workers. Its own process group: what the stale scan
    // kills by group is the server alone.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != test_pid) std::_Exit(127);
    ::setpgid(0, 0);
    const int log = ::open(log_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(log, 2);
    if (fd_limit > 0) {
      rlimit limit{static_cast<rlim_t>(fd_limit), static_cast<rlim_t>(fd_limit)};
      ::setrlimit(RLIMIT_NOFILE, &limit);
    }
    if (without_dac_override) {
      // Fails (EPERM) for a non-root user, who has neither capability anyway.
      ::prctl(PR_CAPBSET_DROP, CAP_DAC_OVERRIDE, 0, 0, 0);
      ::prctl(PR_CAPBSET_DROP, CAP_DAC_READ_SEARCH, 0, 0, 0);
    }
    std::vector<char*> raw;
    for (auto& arg : argv) raw.push_back(arg.data());
    raw.push_back(nullptr);
    ::execv(raw[0], raw.data());
    std::_Exit(127);
  }
  // Safety nets only: a healthy start takes milliseconds.
  for (int i = 0; i < 300 && port_ == 0; ++i) {
    std::ifstream in(port_file);
    int port = 0;
    if (in >> port) port_ = port;
    else std::this_thread::sleep_for(50ms);
  }
  if (port_ == 0) throw std::runtime_error("clerk-serve did not start: " + log());
  for (int i = 0; i < 300 && static_cast<int>(worker_pids().size()) < workers; ++i) std::this_thread::sleep_for(50ms);
  // With reuseport the workers open their sockets after fork: wait until one listens.
  for (int i = 0; i < 300; ++i) {
    try {
      Client probe(port_);
      break;
    } catch (const std::exception&) {
      std::this_thread::sleep_for(50ms);
    }
  }
}

ServerProcess::~ServerProcess() {
  if (pid_ > 0) stop();
}

std::vector<pid_t> ServerProcess::worker_pids() const {
  std::ifstream in("/proc/" + std::to_string(pid_) + "/task/" + std::to_string(pid_) + "/children");
  std::vector<pid_t> pids;
  pid_t pid;
  while (in >> pid) pids.push_back(pid);
  return pids;
}

bool ServerProcess::workers_alive(const std::vector<pid_t>& pids) const {
  if (worker_pids() != pids) return false;
  for (pid_t pid : pids) {
    std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
    std::string line;
    std::getline(stat, line);
    const auto paren = line.rfind(')');
    if (paren == std::string::npos || paren + 2 >= line.size()) return false;
    const char state = line[paren + 2];
    if (state == 'Z' || state == 'X') return false;
  }
  return true;
}

std::string ServerProcess::log() const {
  std::ifstream in(log_path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

int ServerProcess::stop(int signal) {
  if (pid_ <= 0) return -1;
  ::kill(pid_, signal);
  int status = 0;
  pid_t done = 0;
  for (int i = 0; i < 600 && done == 0; ++i) {
    done = ::waitpid(pid_, &status, WNOHANG);
    if (done == 0) std::this_thread::sleep_for(50ms);
  }
  if (done == 0) {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, &status, 0);
    pid_ = -1;
    return -1;
  }
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

Client::Client(int port) {
  fd_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  timeval timeout{10, 0};  // a safety net against a hung test, never an assertion
  ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd_, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<std::uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) != 0)
    throw std::runtime_error(std::string("connect: ") + std::strerror(errno));
}

Client::~Client() {
  if (fd_ >= 0) ::close(fd_);
}

bool Client::send(const std::string& bytes) {
  std::size_t sent = 0;
  while (sent < bytes.size()) {
    const ssize_t n = ::send(fd_, bytes.data() + sent, bytes.size() - sent, MSG_NOSIGNAL);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    sent += static_cast<std::size_t>(n);
  }
  return true;
}

void Client::shutdown_write() { ::shutdown(fd_, SHUT_WR); }

bool Client::fill() {
  char chunk[65536];
  for (;;) {
    const ssize_t n = ::recv(fd_, chunk, sizeof chunk, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    pending_.append(chunk, static_cast<std::size_t>(n));
    return true;
  }
}

Response Client::read_response(bool head_only) {
  Response response;
  std::size_t end;
  while ((end = pending_.find("\r\n\r\n")) == std::string::npos)
    if (!fill()) return response;
  std::istringstream head(pending_.substr(0, end));
  pending_.erase(0, end + 4);
  std::string line;
  std::getline(head, line);
  if (line.rfind("HTTP/1.1 ", 0) != 0) return response;
  const int status = std::atoi(line.c_str() + 9);
  while (std::getline(head, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    std::string name = line.substr(0, colon);
    for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    response.headers[name] = line.substr(line.find_first_not_of(' ', colon + 1));
  }
  std::size_t length = 0;
  if (!head_only && response.headers.count("content-length"))
    length = std::stoull(response.headers["content-length"]);
  while (pending_.size() < length)
    if (!fill()) return response;
  response.body = pending_.substr(0, length);
  pending_.erase(0, length);
  response.status = status;
  return response;
}

std::string Client::read_to_end() {
  while (fill()) {
  }
  return std::exchange(pending_, {});
}

bool Client::at_end() {
  if (!pending_.empty()) return false;
  char byte;
  const ssize_t n = ::recv(fd_, &byte, 1, 0);
  return n == 0 || (n < 0 && (errno == ECONNRESET || errno == EPIPE));
}

void Client::reset() {
  linger hard{1, 0};
  ::setsockopt(fd_, SOL_SOCKET, SO_LINGER, &hard, sizeof hard);
  ::close(fd_);
  fd_ = -1;
}

std::string round_trip(int port, const std::string& request) {
  Client client(port);
  client.send(request);  // the server may close before taking it all
  client.shutdown_write();
  return client.read_to_end();
}

int status_of(const std::string& raw) {
  if (raw.rfind("HTTP/1.1 ", 0) != 0 || raw.size() < 12) return 0;
  return std::atoi(raw.c_str() + 9);
}

std::string get_request(const std::string& target, const std::string& extra) {
  return "GET " + target + " HTTP/1.1\r\nHost: test\r\n" + extra + "\r\n";
}

StderrCapture::StderrCapture(std::string path) : path_(std::move(path)) {
  std::fflush(stderr);
  const int file = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (file < 0) throw std::runtime_error("open " + path_ + ": " + std::strerror(errno));
  saved_ = ::fcntl(2, F_DUPFD_CLOEXEC, 3);
  ::dup2(file, 2);
  ::close(file);
}

StderrCapture::~StderrCapture() {
  std::fflush(stderr);
  if (saved_ >= 0) {
    ::dup2(saved_, 2);
    ::close(saved_);
  }
}

std::string StderrCapture::text() const {
  std::ifstream in(path_);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace clerk::serve::test
