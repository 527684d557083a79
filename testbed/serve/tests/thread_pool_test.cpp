// The pool's refusal rule, on the pool itself: nginx's ngx_thread_task_post
// refuses iff tp->waiting >= max_queue, tp->waiting being the tasks queued
// less the threads idle (ngx_thread_pool_cycle counts a thread off before it
// waits). Threads are held by gated tasks, so every state is reached without
// timing: a post's answer never depends on whether a thread has already
// taken the task before it. And a pool whose threads cannot all start
// (ThreadStarter, the tests' seam for std::thread) joins those that did,
// and clerk-serve then exits with a message instead of aborting.
#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <fstream>
#include <iterator>
#include <cerrno>
#include <cstring>
#include <string>
#include <system_error>
#include <thread>
#include <vector>

#include "common/sanitizer.h"
#include "test_client.h"
#include "thread_pool.h"

using clerk::serve::ThreadPool;
using clerk::serve::test::Gate;
using clerk::serve::test::StderrCapture;
using clerk::serve::test::TempTree;

namespace {

// A task that counts its runs.
std::function<void()> counted(std::atomic<int>& runs) {
  return [&runs] { ++runs; };
}

}  // namespace

TEST_CASE("max_queue 0: a task an idle thread can take is accepted, no other", "[serve][unit][pool]") {
  TempTree tree;
  StderrCapture log(tree.base + "/stderr.log");
  std::atomic<int> runs{0};
  ThreadPool pool(1, 0);
  Gate gate;  // after the pool: opened before the pool joins its thread
  CHECK(pool.try_post(gate.task()));     // waiting -1 (one idle thread) < 0
  CHECK_FALSE(pool.try_post(counted(runs)));  // waiting 0 >= 0, while the first runs
  CHECK_FALSE(pool.try_post(counted(runs)));
  CHECK(pool.overflows() == 2);
  gate.open();
  pool.wait_idle();
  // The thread is idle again: posting works again.
  CHECK(pool.try_post(counted(runs)));
  pool.wait_idle();
  CHECK(runs == 1);  // the accepted one; the refused ones never ran
  CHECK(pool.overflows() == 2);
  CHECK(log.text().find("thread pool \"default\" queue overflow: 0 tasks waiting") != std::string::npos);
}

TEST_CASE("max_queue 1: one task may wait beyond the busy thread", "[serve][unit][pool]") {
  TempTree tree;
  StderrCapture log(tree.base + "/stderr.log");
  std::atomic<int> runs{0};
  ThreadPool pool(1, 1);
  Gate gate;
  CHECK(pool.try_post(gate.task()));          // the idle thread's
  CHECK(pool.try_post(counted(runs)));        // waiting 0 < 1: queued behind it
  CHECK_FALSE(pool.try_post(counted(runs)));  // waiting 1 >= 1
  CHECK(pool.overflows() == 1);
  CHECK(runs == 0);  // the queued one waits for the gate's thread
  gate.open();
  pool.wait_idle();
  CHECK(runs == 1);
  CHECK(pool.try_post(counted(runs)));
  CHECK(pool.try_post(counted(runs)));  // however far the first has gone, waiting is at most 0 here
  pool.wait_idle();
  CHECK(runs == 3);
  CHECK(pool.overflows() == 1);
  const std::string text = log.text();
  CHECK(text.find("thread pool \"default\" queue overflow: 1 tasks waiting") != std::string::npos);
  CHECK(text.find("queue overflow: 0 tasks waiting") == std::string::npos);
}

TEST_CASE("max_queue 0 with two threads: both idle threads take a task, a third is refused", "[serve][unit][pool]") {
  std::atomic<int> runs{0};
  ThreadPool pool(2, 0);
  Gate gate;
  CHECK(pool.try_post(gate.task()));
  CHECK(pool.try_post(gate.task()));
  {
    TempTree tree;
    StderrCapture log(tree.base + "/stderr.log");
    CHECK_FALSE(pool.try_post(counted(runs)));
    CHECK(log.text() == "clerk-serve: thread pool \"default\" queue overflow: 0 tasks waiting\n");
  }
  CHECK(pool.overflows() == 1);
  gate.open();
  pool.wait_idle();
  CHECK(pool.try_post(counted(runs)));
  CHECK(pool.try_post(counted(runs)));
  pool.wait_idle();
  CHECK(runs == 2);
}

TEST_CASE("a stopped pool refuses without counting an overflow", "[serve][unit][pool]") {
  ThreadPool pool(1, 4);
  pool.stop();
  CHECK_FALSE(pool.try_post([] {}));
  CHECK(pool.overflows() == 0);
}

TEST_CASE("a pool whose third thread cannot start joins the two it started and names itself", "[serve][unit][pool]") {
  std::atomic<int> started{0};
  std::atomic<int> finished{0};  // bodies returned: the pool stopped them, and joined them before throwing
  // std::thread's constructor as pthread_create's EAGAIN (a pids cgroup's limit) makes it throw.
  const clerk::serve::ThreadStarter third_refused = [&](std::function<void()> body) {
    if (started == 2) throw std::system_error(EAGAIN, std::generic_category());
    ++started;
    return std::thread([&finished, body = std::move(body)] {
      body();
      ++finished;
    });
  };
  std::string error;
  try {
    ThreadPool pool(4, 0, third_refused);
  } catch (const clerk::serve::ThreadPoolError& e) {
    error = e.what();
  }
  CHECK(started == 2);
  CHECK(finished == 2);
  CHECK(error == "thread pool \"default\": cannot start thread 3 of 4: errno " + std::to_string(EAGAIN) + " (EAGAIN: " +
                     std::strerror(EAGAIN) + "); the 2 threads started before it are stopped and joined");
}

TEST_CASE("a pool whose first thread cannot start throws with none to join", "[serve][unit][pool]") {
  const clerk::serve::ThreadStarter refused = [](std::function<void()>) -> std::thread {
    throw std::system_error(EAGAIN, std::generic_category());
  };
  CHECK_THROWS_WITH(ThreadPool(2, 0, refused), Catch::Contains("thread pool \"default\": cannot start thread 1 of 2") &&
                                                  Catch::Contains("the 0 threads started before it"));
}

namespace {
using common::kAddressSanitizer;

// Runs clerk-serve with `args` under an address-space limit (RLIMIT_AS) and
// 8 MiB thread stacks (RLIMIT_STACK, glibc's default stack size), its stderr
// in `log`; its wait status, or -1 if it had not exited after 30 s (a safety
// net: it fails in milliseconds) and was killed.
int serve_under_address_limit(const std::vector<std::string>& args, rlim_t address_space, const std::string& log) {
  std::vector<std::string> argv{CLERK_SERVE_BINARY};
  argv.insert(argv.end(), args.begin(), args.end());
  std::vector<char*> raw;
  for (std::string& arg : argv) raw.push_back(arg.data());
  raw.push_back(nullptr);
  const pid_t pid = ::fork();
  if (pid == 0) {
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ::dup2(fd, 2);
    const rlimit stack{rlim_t{8} << 20, rlim_t{8} << 20};
    const rlimit space{address_space, address_space};
    ::setrlimit(RLIMIT_STACK, &stack);
    ::setrlimit(RLIMIT_AS, &space);
    ::execv(raw[0], raw.data());
    std::_Exit(127);
  }
  int status = 0;
  for (int i = 0; i < 600; ++i) {
    if (::waitpid(pid, &status, WNOHANG) == pid) return status;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  ::kill(pid, SIGKILL);
  ::waitpid(pid, &status, 0);
  return -1;
}
}  // namespace

// 4096 threads' 8 MiB stacks need 32 GiB of address space; 256 MiB leaves
// the master and its worker room to start but not for them, and
// pthread_create fails with EAGAIN (its stack's mmap refused), as under a pids
// cgroup's limit. Not under ASan, whose shadow memory needs terabytes of
// address space.
TEST_CASE("clerk-serve whose pool threads cannot start exits 1 naming the pool, without aborting", "[serve][pool]") {
  if (kAddressSanitizer) {
    WARN("skipped under ASan: its shadow memory needs more address space than the limit allows");
    return;
  }
  TempTree tree;
  const std::string log = tree.base + "/serve.log";
  const int status = serve_under_address_limit({"--root", tree.root, "--listen", "127.0.0.1:0", "--workers", "1",
                                                "--aio", "threads", "--threads", "4096"},
                                               rlim_t{256} << 20, log);
  std::ifstream in(log);
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  INFO(text);
  REQUIRE(status != -1);
  REQUIRE(WIFEXITED(status));  // not SIGABRT from std::terminate
  CHECK(WEXITSTATUS(status) == 1);
  CHECK(text.find(": thread pool \"default\": cannot start thread ") != std::string::npos);
  CHECK(text.find(" (EAGAIN: ") != std::string::npos);
  CHECK(text.find("a worker failed fatally, shutting down") != std::string::npos);
}
