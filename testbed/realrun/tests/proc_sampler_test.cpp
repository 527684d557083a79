// /proc parsing: thread states, CPU ticks, /proc/stat, /proc/diskstats.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <catch2/catch.hpp>

#include "testbed/realrun/proc_sampler.h"
#include "testbed/realrun/real_run.h"

using namespace testbed::realrun;

TEST_CASE("stat lines: the state after a command name with ') ' inside, and this process's CPU time", "[proc_sampler]") {
  // The CPU ticks of such a line: common/tests/proc_stat_test.cpp.
  const std::string stat =
      "1234 (nginx: wor) ker) D 1 1234 1234 0 -1 4194560 100 0 0 0 17 5 0 0 20 0 1 0 100 1000 10 "
      "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
  CHECK(parse_stat_state(stat) == 'D');
  CHECK(parse_stat_state("") == 0);
  // This process: running as it reads itself.
  CHECK(process_cpu_s(::getpid()) >= 0);
}

TEST_CASE("/proc/stat totals", "[proc_sampler]") {
  const auto t = parse_proc_stat("cpu  100 5 50 1000 20 3 2 1 0 0\ncpu0 50 2 25 500 10 1 1 0 0 0\n");
  CHECK(t.busy == 100 + 5 + 50 + 3 + 2 + 1);
  CHECK(t.iowait == 20);
  CHECK(t.total == t.busy + 1000 + 20);
  CHECK(t.irq == 3 + 2);
  CHECK(read_cpu_totals().total > 0);
}

TEST_CASE("the run's softirq note: HRTIMER and NET_RX a completed request, irq time a share of all CPUs", "[proc_sampler]") {
  testbed::RealRunResult r;
  CHECK_THAT(testbed::softirq_note(r), Catch::Contains("could not be read"));
  r.softirqs_read = true;
  r.groups.resize(2);
  r.groups[0].requests = 300;
  r.groups[1].requests = 100;
  r.hrtimer_softirqs = 6000;  // 15 a request
  r.net_rx_softirqs = 1000;   // 2.5
  r.machine_irq = 0.123;
  const std::string note = testbed::softirq_note(r);
  CHECK_THAT(note, Catch::Contains("15.0 HRTIMER and 2.5 NET_RX a request"));
  CHECK_THAT(note, Catch::Contains("12.3% of all CPUs"));
  r.groups.clear();  // no request completed: no division by zero
  CHECK_THAT(testbed::softirq_note(r), Catch::Contains("0.0 HRTIMER"));
  // Read from this machine: the counters only grow.
  const auto a = read_softirq_counts();
  CHECK_FALSE(a.hrtimer.empty());  // one count per CPU
  CHECK(a.hrtimer.size() == a.net_rx.size());
}

TEST_CASE("/proc/diskstats by device number", "[proc_sampler]") {
  const std::string text =
      " 254       0 vda 5000 10 400000 3000 100 5 8000 200 0 4000 3200 0 0 0 0 50 30\n"
      " 254       1 vda1 4000 9 300000 2500 90 5 7000 190 0 3500 2700 0 0 0 0 0 0\n";
  const auto d = parse_diskstats(text, 254, 1);
  REQUIRE(d.found);
  CHECK(d.name == "vda1");
  CHECK(d.reads == 4000);
  CHECK(d.sectors_read == 300000);
  CHECK_FALSE(parse_diskstats(text, 8, 0).found);
}

TEST_CASE("state sampler counts a sleeping process as S", "[proc_sampler]") {
  const pid_t child = ::fork();
  if (child == 0) {
    ::pause();
    ::_exit(0);
  }
  ::usleep(50'000);
  StateSampler s({child, 999'999'999});
  for (int i = 0; i < 5; ++i) s.sample();
  CHECK(s.shares(0).samples == 5);
  CHECK(s.shares(0).sleeping == 1.0);
  CHECK(s.shares(1).samples == 0);  // no such process
  ::kill(child, SIGKILL);
  ::waitpid(child, nullptr, 0);
}
