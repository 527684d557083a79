// The stat line's CPU ticks and /proc/softirqs counts (common/proc_stat.h), as calibrate and realrun
// read them.
#include <catch2/catch.hpp>
#include <string>

#include "common/proc_stat.h"

using common::parse_stat_cpu_ticks;

TEST_CASE("/proc/PID/stat: utime + stime after a command name with spaces and parentheses", "[proc_stat]") {
  // A command name holding ') ' and one holding '(': fields counted after the last ')'.
  const std::string worker =
      "1234 (nginx: wor) ker) D 1 1234 1234 0 -1 4194560 100 0 0 0 17 5 0 0 20 0 1 0 100 1000 10 "
      "18446744073709551615 0 0 0 0 0 0 0 0 0 0 0 0 17 0 0 0 0 0 0\n";
  REQUIRE(parse_stat_cpu_ticks(worker));
  CHECK(*parse_stat_cpu_ticks(worker) == 22);
  const std::string nested = "4242 (nginx: (worker) x) S 4241 4241 4241 0 -1 4194624 300 0 0 0 125 37 0 0 20 0 1 0";
  REQUIRE(parse_stat_cpu_ticks(nested));
  CHECK(*parse_stat_cpu_ticks(nested) == 162);
}

TEST_CASE("/proc/PID/stat: a short line, counts that are not numbers or no ')' give nothing", "[proc_stat]") {
  // fuzz_proc found std::stod's invalid_argument here once: nothing is thrown.
  CHECK_FALSE(parse_stat_cpu_ticks("1 (x) S 1 2"));
  CHECK_FALSE(parse_stat_cpu_ticks("4242 (x) S 4241 4241 4241 0 -1 4194624 300 0 0 0 a b"));
  CHECK_FALSE(parse_stat_cpu_ticks("4242 x S 4241 4241 4241 0 -1 4194624 300 0 0 0 125 37"));
  CHECK_FALSE(parse_stat_cpu_ticks(""));
}

TEST_CASE("/proc/softirqs: a softirq's counts per CPU, and the count between two readings", "[proc_stat]") {
  const std::string text =
      "                    CPU0       CPU1       \n"
      "          HI:          0          0\n"
      "      NET_RX:     940279    1113788\n"
      "     HRTIMER:     403440     330624\n";
  CHECK(common::parse_softirq_counts(text, "HRTIMER") == std::vector<std::uint32_t>{403440, 330624});
  CHECK(common::parse_softirq_counts(text, "NET_RX") == std::vector<std::uint32_t>{940279, 1113788});
  CHECK(common::parse_softirq_counts(text, "TASKLET").empty());  // absent
  CHECK(common::parse_softirq_counts(text, "HI") == std::vector<std::uint32_t>{0, 0});
  CHECK_THROWS_WITH(common::parse_softirq_counts("HRTIMER: 12 x3\n", "HRTIMER"), Catch::Contains("not a count"));
  CHECK_THROWS_WITH(common::parse_softirq_counts("HRTIMER: 4294967296\n", "HRTIMER"), Catch::Contains("not a count"));
  CHECK_THROWS_WITH(common::parse_softirq_counts("HRTIMER: 99999999999999999999\n", "HRTIMER"),
                    Catch::Contains("not a count"));
  // Each CPU's counter wraps at 2^32 (an unsigned int in the kernel).
  CHECK(common::softirqs_between({100, 4294967290u}, {150, 4}) == 50 + 10);
  // A CPU only one reading has (hotplug) is left out.
  CHECK(common::softirqs_between({1, 2}, {11, 22, 33}) == 10 + 20);
}
