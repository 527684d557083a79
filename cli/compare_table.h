// `clerk compare`: the figures of N runs side by side. Each run's figures are
// taken from its RunResult once (figures_of), and the table, the JSON and the
// figure are all made from those, so the three always agree. A pure layer:
// nothing here runs a scenario or writes a file (cli/compare_command.cpp does).
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/sweep/plot_script.h"
#include "models/scenario/result.h"

namespace cli {

struct GroupFigures {
  std::string name;
  double requests_per_s = 0;
  double mean_s = 0;         // wrk's Latency Avg
  double p99_s = 0;          // of the completed responses (wrk's raw histogram)
  double transfer_Bps = 0;   // response bytes a second
};

// Task states as top shows them (shares of the run per task, adding up to 1)
// and the D share split by the kernel's wait channel (models/os/task_states.h).
struct StateFigures {
  std::uint64_t tasks = 0;
  double running = 0, sleeping = 0, disk_wait = 0;
  double cpu_wait = 0;  // part of running: runnable, waiting for a CPU
  models::BlockedByCause blocked{};  // by WaitCause; adds up to disk_wait
};

struct CompareFigures {
  std::string scenario, file;
  double duration_s = 0;
  double nic_gbps = 0;
  std::vector<GroupFigures> groups;
  double p99_all_s = 0;
  std::uint64_t in_flight = 0;
  StateFigures workers;
  bool pool = false;
  StateFigures pool_threads;
  std::uint64_t pool_tasks = 0, pool_overflows = 0;
  double iowait = 0;
  double cache_hit_ratio = 0;
  double requests_without_disk_wait = -1;  // share; -1: the engine records no stages
  double disk_read_Bps = 0, disk_queue_depth = 0, disk_utilization = 0;
  double blocked_wait_s = 0, delayed_share = 0;  // event_loop_blocked
};

CompareFigures figures_of(const models::RunResult& r);

// The client groups of every run, in first-seen order.
std::vector<std::string> group_names(const std::vector<CompareFigures>& runs);

// The table for the terminal: one column a run, rows with their units.
std::string compare_table(const std::vector<CompareFigures>& runs, std::uint64_t seed);
// The same figures as JSON, in SI units (seconds, bytes/s, shares of 1).
nlohmann::ordered_json compare_json(const std::vector<CompareFigures>& runs, std::uint64_t seed);
// Six panels: requests/s, disk MB/s, mean and p99 latency per group, workers'
// R/S/D and their D by cause.
sweep::BarChart compare_chart(const std::vector<CompareFigures>& runs, std::uint64_t seed);

}  // namespace cli
