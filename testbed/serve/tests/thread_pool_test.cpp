// The pool's refusal rule, on the pool itself: nginx's ngx_thread_task_post
// refuses iff tp->waiting >= max_queue, tp->waiting being the tasks queued
// less the threads idle (ngx_thread_pool_cycle counts a thread off before it
// waits). Threads are held by gated tasks, so every state is reached without
// timing: a post's answer never depends on whether a thread has already
// taken the task before it.
#include <catch2/catch.hpp>

#include <atomic>

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
