// `clerk sweep` and `clerk sweep merge`. Each returns the exit status:
// 0 done, 1 a run or a file write failed, 2 bad input (nothing run).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace cli::sweep {

struct SweepArgs {
  std::string file;                   // a sweep spec, or a scenario for an inline sweep
  std::vector<std::string> sets;      // KEY=v1,v2 / KEY=lo..hi:step / KEY=v (fixed)
  std::string mode;                   // empty: the spec's
  std::optional<std::uint64_t> samples;
  std::optional<std::uint64_t> sample_seed;
  std::string seeds;                  // empty: the spec's
  std::vector<std::string> metrics;   // empty: the spec's
  std::string table_metrics;          // --metrics a,b,c: the table's columns; empty: the first three
  std::optional<double> confidence;
  unsigned jobs = 0;                  // 0: one thread per core
  std::string out;                    // empty: named after the file (and the shard)
  std::string shard;                  // "I/N"
  bool resume = false;
  bool overwrite = false;
  bool dry_run = false;
  bool quiet = false;                 // no progress bar, no table
};
int sweep_command(const SweepArgs& args);

struct MergeArgs {
  std::vector<std::string> inputs;
  std::string out;
  double confidence = 0.95;
};
int merge_command(const MergeArgs& args);

}  // namespace cli::sweep
